import type { OpenAPIV3 } from 'openapi-types';

/**
 * The root `x-apikit-http` object: HTTP conventions of an API that RFC 9110 leaves open (or
 * only recommends), declared so that test tools hold an implementation to them only where its
 * description says so. Read through `apikit-extensions.ts`, like every `x-apikit-*`; a value of
 * the wrong type counts as absent.
 */
export interface DeclaredHttp {
  /**
   * Only the declared paths exist: the same path in another letter case, with a trailing slash
   * or with a file extension (`.json`) is an unknown path, answered 404 whatever the method
   * (`OPTIONS` included).
   */
  strictRouting: boolean;
  /**
   * The API versions the service serves, as the last segment of its server URL (`v1`); any
   * other version segment under the same parent is 404. Empty when not declared.
   */
  versions: string[];
  /**
   * The server URL without its version segment (`/api`) is an alias of the newest version,
   * whose `Link` and `Location` still name the versioned paths.
   */
  newestVersionAlias: boolean;
  /** The status of a method the server does not recognize at all (501), if declared. */
  unrecognizedMethodStatus: number | undefined;
  /** A body whose Content-Type names a charset other than UTF-8 is 415. */
  utf8Charset: boolean;
  /**
   * A 400 lists every violated constraint in `errors`, each with a `pointer` in fragment form:
   * `#/items/0/quantity` in the body, `#/query/NAME`, `#/path/NAME`, `#/header/NAME`.
   */
  listEveryViolation: boolean;
  /**
   * The bound of a 400's `errors`: at most `maxItems` entries, the first found in the order of
   * checks, the violations left out counted in the body's `omittedCount` property, and no
   * entry's `pointer` or `detail` over `maxLength` characters. Undefined when not declared.
   */
  errorsLimit: { maxItems: number; omittedCount: string; maxLength: number } | undefined;
  /**
   * A request whose request line and headers are over `maxBytes` gets `status` on any path,
   * before any other check: `response`, a service-wide answer no operation repeats. Undefined
   * when not declared.
   */
  headerLimit: { maxBytes: number; status: number; response: OpenAPIV3.ResponseObject } | undefined;
  /**
   * The order in which a request's failures are judged, first to last, in steps such as
   * `method`, `authentication`, `authorization`, `accept`, `media-type`, `parameters`,
   * `resource`, `preconditions`, `body`: a request failing two answers the earlier one's status.
   * Empty when not declared.
   */
  checkOrder: string[];
  /** The one title of each problem `type` (RFC 9457 3.1.3), by type; empty when not declared. */
  problemTitles: Record<string, string>;
  /**
   * The GET operations (operationIds) whose `Last-Modified` is the time the data set was
   * created (first start or last reset), lists included: one date shared by all of them.
   * Empty when not declared.
   */
  dataSetDated: string[];
  /**
   * Lists and pages, those in `dataSetDated` aside, carry a weak `ETag` and no `Last-Modified`.
   */
  undatedLists: boolean;
  /**
   * The body property (an RFC 3339 date-time) a single resource's `Last-Modified` is made of, to
   * the second: a representation embedding other resources (an object or a list of objects
   * among its properties) is dated by the newest of its parts, so never older than that
   * property. Undefined when not declared.
   */
  lastModifiedProperty: string | undefined;
  /**
   * An `Idempotency-Key` remembers the answer to a request that passed validation (a 409 or
   * 422 too) and none to one that did not: after a 400 the key is free.
   */
  idempotencyAfterValidation: boolean;
}

/** Read once per document: the response checks ask for it on every answer of a run. */
const cachedDeclaredHttp = new WeakMap<OpenAPIV3.Document, DeclaredHttp>();

/**
 * The HTTP conventions a description declares in its root `x-apikit-http`; a description
 * without it declares none.
 *
 * @example
 * // x-apikit-http: { strictRouting: true, versions: [v1], newestVersionAlias: true }
 * declaredHttp(doc).versions; // ['v1']
 */
export function declaredHttp(doc: OpenAPIV3.Document): DeclaredHttp {
  let known = cachedDeclaredHttp.get(doc);
  if (!known) cachedDeclaredHttp.set(doc, (known = readDeclaredHttp(doc)));
  return known;
}

function readDeclaredHttp(doc: OpenAPIV3.Document): DeclaredHttp {
  const declared: unknown = (doc as unknown as Record<string, unknown>)['x-apikit-http'];
  const object = typeof declared === 'object' && declared !== null ? declared : {};
  const get = (name: string): unknown => Reflect.get(object, name);
  const versions = get('versions');
  const status = get('unrecognizedMethodStatus');
  const titles = get('problemTitles');
  return {
    strictRouting: get('strictRouting') === true,
    versions: Array.isArray(versions)
      ? versions.filter((v): v is string => typeof v === 'string' && /^v\d+$/.test(v))
      : [],
    newestVersionAlias: get('newestVersionAlias') === true,
    utf8Charset: get('utf8Charset') === true,
    listEveryViolation: get('listEveryViolation') === true,
    errorsLimit: errorsLimit(get('errorsLimit')),
    headerLimit: headerLimit(get('headerLimit')),
    checkOrder: strings(get('checkOrder')),
    dataSetDated: strings(get('dataSetDated')),
    undatedLists: get('undatedLists') === true,
    lastModifiedProperty: nonEmpty(get('lastModifiedProperty')),
    idempotencyAfterValidation: get('idempotencyAfterValidation') === true,
    unrecognizedMethodStatus:
      Number.isInteger(status) && (status as number) >= 400 ? (status as number) : undefined,
    problemTitles:
      typeof titles === 'object' && titles !== null && !Array.isArray(titles)
        ? Object.fromEntries(
            Object.entries(titles).filter((e): e is [string, string] => typeof e[1] === 'string'),
          )
        : {},
  };
}

function errorsLimit(value: unknown): DeclaredHttp['errorsLimit'] {
  const maxItems = field(value, 'maxItems');
  const omittedCount = field(value, 'omittedCount');
  const maxLength = field(value, 'maxLength');
  return isCount(maxItems) && typeof omittedCount === 'string' && isCount(maxLength)
    ? { maxItems, omittedCount, maxLength }
    : undefined;
}

function headerLimit(value: unknown): DeclaredHttp['headerLimit'] {
  const maxBytes = field(value, 'maxBytes');
  const status = field(value, 'status');
  const response = field(value, 'response');
  return isCount(maxBytes) &&
    isCount(status) &&
    status >= 400 &&
    typeof response === 'object' &&
    response !== null
    ? { maxBytes, status, response: response as OpenAPIV3.ResponseObject }
    : undefined;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
const isCount = (value: unknown): value is number => Number.isInteger(value) && Number(value) > 0;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
