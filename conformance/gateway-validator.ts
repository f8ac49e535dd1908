import type { OpenAPIV3 } from 'openapi-types';
import { declaredHttp, serverPath, type DeclaredHttp } from '../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import {
  ResponseValidator,
  type ObservedResponse,
  type ResponseViolation,
} from '../spec/response-validator.js';

/** Headers whose values are URI references a gateway prefix shows up in. */
const URI_HEADERS = ['location', 'content-location'];

/**
 * The path a gateway puts before the spec's server path: the base URL's path less the path of
 * the spec's `servers[0].url` it ends with (`/svc` for `…/svc/api/v1` under `/api/v1`); `''`
 * when the base URL's path does not end with the server path (an alias such as `/api`).
 *
 * @example
 * gatewayPrefix('/svc/api/v1', '/api/v1'); // '/svc'
 * gatewayPrefix('/api/v1', '/api/v1'); // ''
 */
export function gatewayPrefix(basePath: string, declared: string | undefined): string {
  const server = declared ?? '';
  return basePath.endsWith(server) ? basePath.slice(0, basePath.length - server.length) : '';
}

/**
 * Response headers as the spec's patterns read them: a path-absolute `Location`,
 * `Content-Location` or `Link` target under the gateway prefix loses it (`/svc/api/v1/users/5`
 * is judged as `/api/v1/users/5`). Absolute URLs and other headers are left as they came.
 */
export function specRelativeHeaders(headers: Headers, prefix: string): Headers {
  if (!prefix) return headers;
  const strip = (target: string) =>
    target.startsWith(prefix) && /^(?:[/?#]|$)/.test(target.slice(prefix.length))
      ? target.slice(prefix.length) || '/'
      : target;
  const mapped = new Headers(headers);
  for (const name of URI_HEADERS) {
    const value = headers.get(name);
    if (value?.startsWith('/') && !value.startsWith('//')) mapped.set(name, strip(value));
  }
  const link = headers.get('link');
  if (link)
    mapped.set(
      'link',
      link.replace(/<(\/(?!\/)[^>]*)>/g, (_m, target: string) => `<${strip(target)}>`),
    );
  return mapped;
}

/**
 * The run's response validator: the spec's, judging URI-valued headers relative to the base
 * URL given, so a target behind a gateway prefix (`http://host/svc/api/v1` for a spec served
 * at `/api/v1`) is held to the spec's `Location` and `Link` patterns as if served at the
 * server path (decision 0098). A status the spec declares service-wide (`x-apikit-http`'s
 * `headerLimit`: 431 on any path) is judged by its declared response wherever an operation
 * does not document it: not an undocumented status (decision 0107).
 *
 * @example
 * const validator = new GatewayValidator(spec, client.basePath);
 */
export class GatewayValidator extends ResponseValidator {
  private readonly prefix: string;
  private readonly serviceWide: DeclaredHttp['headerLimit'];

  constructor(doc: OpenApiDocument, basePath: string) {
    super(doc);
    this.prefix = gatewayPrefix(basePath, serverPath(doc));
    this.serviceWide = declaredHttp(doc).headerLimit;
  }

  override documented(operationId: string, status: number): OpenAPIV3.ResponseObject | undefined {
    const own = super.documented(operationId, status);
    return own ?? (status === this.serviceWide?.status ? this.serviceWide.response : undefined);
  }

  override validate(operationId: string, response: ObservedResponse): ResponseViolation[] {
    return super.validate(operationId, {
      ...response,
      headers: specRelativeHeaders(response.headers, this.prefix),
    });
  }
}
