import type { OpenAPIV3 } from 'openapi-types';

/**
 * The `x-apikit-*` extensions a description may carry, each read here and nowhere else, each
 * with one meaning. A value of the wrong type counts as absent (the description is a user's
 * file; a typo must not crash a run). The API description's Authentication, Uniqueness and
 * State machines sections document the operation extensions for the spec's readers.
 */

/** Where an operation's extensions live: a `SpecOperation`, or anything with its object. */
interface HasOperation {
  operation: OpenAPIV3.OperationObject;
}

/** The extensions as they may appear on an object of the description, before they are read. */
type Extended = { [name: `x-apikit-${string}`]: unknown };

function extension(on: object, name: `x-apikit-${string}`): unknown {
  return (on as Extended)[name];
}

/**
 * `x-apikit-role: NAME`: the role a caller must hold to call the operation at all, whatever
 * resource it touches. A caller without it is refused with 403, judged right after 401 and
 * before any resource is looked at. A role needed only for some resources (changing a user
 * who holds ADMIN) is not marked. Undefined when the operation needs no role.
 *
 * @example
 * requiredRole(operationsById.get('resetData')!); // 'ADMIN'
 */
export function requiredRole(op: HasOperation): string | undefined {
  const role = extension(op.operation, 'x-apikit-role');
  return typeof role === 'string' ? role : undefined;
}

/**
 * `x-apikit-destructive: true`: the operation destroys data a client did not create (a data
 * reset), so test tools leave it out unless told otherwise. Any other value means it does not.
 *
 * @example
 * isDestructive(operationsById.get('resetData')!); // true
 */
export function isDestructive(op: HasOperation): boolean {
  return extension(op.operation, 'x-apikit-destructive') === true;
}

/** What an operation's `x-apikit-unique` declares: values it keeps unique among resources. */
export interface UniqueFields {
  /** Top-level request properties whose values no two resources may share. */
  fields: string[];
  /** Values differing only in letter case count as the same value. */
  caseInsensitive: boolean;
  /** The status of the refusal when the request would break the rule (409 by default). */
  conflictStatus: number;
}

/**
 * `x-apikit-unique: { fields, caseInsensitive, conflictStatus }` on an operation: a request
 * that would give two resources the same value of one of `fields` is refused with
 * `conflictStatus` and changes nothing. Undefined when the operation declares no such rule
 * (or no field names).
 *
 * @example
 * // x-apikit-unique: { fields: [email], caseInsensitive: true, conflictStatus: 409 }
 * uniqueFields(operationsById.get('createUser')!)?.fields; // ['email']
 */
export function uniqueFields(op: HasOperation): UniqueFields | undefined {
  const declared = extension(op.operation, 'x-apikit-unique');
  if (typeof declared !== 'object' || declared === null) return undefined;
  const fields: unknown = Reflect.get(declared, 'fields');
  const names = Array.isArray(fields) ? fields.filter((f) => typeof f === 'string') : [];
  if (names.length === 0) return undefined;
  const status: unknown = Reflect.get(declared, 'conflictStatus');
  return {
    fields: names,
    caseInsensitive: Reflect.get(declared, 'caseInsensitive') === true,
    conflictStatus: Number.isInteger(status) ? (status as number) : 409,
  };
}

/** One declared transition: the operation, the states it may be called in, the state it sets. */
export interface StateTransition {
  /** The operationId of an operation a link from the creating operation reaches. */
  operation: string;
  from: string[];
  to: string;
}

/** What a creating operation's `x-apikit-state-machine` declares about its resources. */
export interface StateMachine {
  /** The top-level property of the resource holding its state. */
  field: string;
  states: string[];
  /** The state a new resource starts in (undefined: whatever the create answers). */
  initial: string | undefined;
  transitions: StateTransition[];
  /** The status of a refused transition (409 by default). */
  refusalStatus: number;
  /**
   * Moving a resource to the state it has: `noop` a 2xx changing nothing, `refused` refused
   * like any transition not allowed; undefined when the description does not say.
   */
  sameState: 'noop' | 'refused' | undefined;
}

/**
 * `x-apikit-state-machine: { field, states, initial, transitions, refusalStatus, sameState }` on a
 * creating operation: the resources it makes hold a state in `field`, moved only by the
 * `transitions` (`{ operation, from, to }`: an operation whose request body has `field` sets
 * it by sending `{ [field]: to }`, any other is called as it is). Whatever no transition allows
 * from a state is refused with `refusalStatus` and changes nothing; moving a resource to the
 * state it has is what `sameState` says (`noop` or `refused`). Undefined when not declared (or
 * without field, states or valid transitions).
 *
 * @example
 * stateMachine(operationsById.get('createUserOrder')!)?.initial; // 'PENDING'
 */
export function stateMachine(op: HasOperation): StateMachine | undefined {
  const declared = extension(op.operation, 'x-apikit-state-machine');
  if (typeof declared !== 'object' || declared === null) return undefined;
  const get = (name: string): unknown => Reflect.get(declared, name);
  const field = get('field');
  const states = strings(get('states'));
  const listed = get('transitions');
  const transitions = (Array.isArray(listed) ? listed : []).flatMap((t: unknown) => {
    if (typeof t !== 'object' || t === null) return [];
    const operation: unknown = Reflect.get(t, 'operation');
    const to: unknown = Reflect.get(t, 'to');
    const from = strings(Reflect.get(t, 'from'));
    if (typeof operation !== 'string' || typeof to !== 'string' || !states.includes(to)) return [];
    return [{ operation, from: from.filter((s) => states.includes(s)), to }];
  });
  if (typeof field !== 'string' || states.length === 0 || transitions.length === 0)
    return undefined;
  const initial = get('initial');
  const status = get('refusalStatus');
  const same = get('sameState');
  return {
    field,
    states,
    initial: typeof initial === 'string' && states.includes(initial) ? initial : undefined,
    transitions,
    refusalStatus: Number.isInteger(status) ? (status as number) : 409,
    sameState: same === 'noop' || same === 'refused' ? same : undefined,
  };
}

/** The strings of a list (a lone string counts as a list of one); anything else: none. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The root `x-apikit-validation` object: conventions beyond OpenAPI that the description holds
 * its implementations to. Each is true only where the description declares it (truthy).
 */
export interface DeclaredValidation {
  /** A query parameter the operation does not declare is 400 (`#/query/NAME`). */
  rejectUnknownQueryParameters: boolean;
  /** Query integers are plain decimal: no sign, exponent, fraction or leading zero. */
  plainDecimalQueryIntegers: boolean;
  /** A string with a lone UTF-16 surrogate is 400. */
  rejectLoneSurrogates: boolean;
  /** Read-only properties in a request body are accepted and ignored (the resource keeps its). */
  ignoreReadOnlyProperties: boolean;
  /**
   * A query array declared comma-separated (`style: form`, `explode: false`) is accepted
   * repeated too (`a=x&a=y` as `a=x,y`), and a value given twice counts once.
   */
  commaSeparatedArraysRepeatable: boolean;
}

/**
 * The validation conventions a description declares in its root `x-apikit-validation`; a
 * description without it declares none.
 *
 * @example
 * // x-apikit-validation: { rejectUnknownQueryParameters: true }
 * declaredValidation(doc).rejectUnknownQueryParameters; // true
 */
export function declaredValidation(doc: OpenAPIV3.Document): DeclaredValidation {
  const declared = extension(doc, 'x-apikit-validation');
  const flag = (name: keyof DeclaredValidation) =>
    typeof declared === 'object' && declared !== null && Boolean(Reflect.get(declared, name));
  return {
    rejectUnknownQueryParameters: flag('rejectUnknownQueryParameters'),
    plainDecimalQueryIntegers: flag('plainDecimalQueryIntegers'),
    rejectLoneSurrogates: flag('rejectLoneSurrogates'),
    ignoreReadOnlyProperties: flag('ignoreReadOnlyProperties'),
    commaSeparatedArraysRepeatable: flag('commaSeparatedArraysRepeatable'),
  };
}

export { declaredHttp, type DeclaredHttp } from './http-extensions.js';
export { declaredCacheControl, type DeclaredCacheControl } from './cache-extensions.js';

/** What a creating operation's `x-apikit-ids` declares about the ids it assigns. */
export interface IdAllocation {
  /** The top-level property of the created resource holding its id. */
  field: string;
  /** Each id is greater than every id assigned before, a deleted one included (never reused). */
  increasing: boolean;
  /** operationId of a PUT creating at a client's id, after which ids continue past it. */
  putCreate: string | undefined;
}

/**
 * `x-apikit-ids: { field, increasing, putCreate }` on a creating operation (decision 0083).
 * Undefined when not declared (or without a field).
 *
 * @example
 * idAllocation(operationsById.get('createUser')!)?.putCreate; // 'replaceUser'
 */
export function idAllocation(op: HasOperation): IdAllocation | undefined {
  const declared = extension(op.operation, 'x-apikit-ids');
  if (typeof declared !== 'object' || declared === null) return undefined;
  const field: unknown = Reflect.get(declared, 'field');
  const put: unknown = Reflect.get(declared, 'putCreate');
  if (typeof field !== 'string') return undefined;
  return {
    field,
    increasing: Reflect.get(declared, 'increasing') === true,
    putCreate: typeof put === 'string' ? put : undefined,
  };
}

export {
  sessionDeclaration,
  rolesDeclaration,
  type SessionDeclaration,
  type RolesDeclaration,
} from './session-extensions.js';

export {
  cascadeOf,
  initialItems,
  type Cascade,
  type InitialItems,
} from './lifecycle-extensions.js';

export {
  sortOrder,
  fixedCatalog,
  referencesOf,
  parentStates,
  writableIn,
  scopedBy,
  embeddedItems,
  type SortOrder,
  type Reference,
  type EmbeddedItems,
} from './relation-extensions.js';

export {
  serviceDeclaration,
  serverPath,
  type ServiceDeclaration,
  type ServedRoute,
  type CorsDeclaration,
} from './service-extensions.js';

/** Every extension name this file reads, for the check that a description uses no other. */
export const APIKIT_EXTENSIONS = [
  'x-apikit-role',
  'x-apikit-destructive',
  'x-apikit-validation',
  'x-apikit-unique',
  'x-apikit-state-machine',
  'x-apikit-cascade',
  'x-apikit-initial-items',
  'x-apikit-http',
  'x-apikit-session',
  'x-apikit-roles',
  'x-apikit-ids',
  'x-apikit-service',
  'x-apikit-sort',
  'x-apikit-fixed-catalog',
  'x-apikit-references',
  'x-apikit-parent-states',
  'x-apikit-writable-in',
  'x-apikit-scoped',
  'x-apikit-items',
] as const;
