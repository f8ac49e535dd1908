import { PLACEHOLDERS, type RecordedRequest, type RecordedResponse } from './interaction-file.js';

/** A JSON Web Token anywhere in a string: three base64url parts, the first a JSON object's. */
const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;

/** Fields whose value is a secret, by name (any depth of a body), and what stands there. */
const SECRET_FIELDS: Record<string, string> = {
  accessToken: PLACEHOLDERS.accessToken,
  access_token: PLACEHOLDERS.accessToken,
  refreshToken: PLACEHOLDERS.refreshToken,
  refresh_token: PLACEHOLDERS.refreshToken,
};

/** A field named like a password (`password`, `currentPassword`, `new_password`). */
const PASSWORD_FIELD = /password/i;

/** The placeholder of a secret field, or undefined for a field that is not one. */
function secretPlaceholder(name: string): string | undefined {
  return SECRET_FIELDS[name] ?? (PASSWORD_FIELD.test(name) ? PLACEHOLDERS.password : undefined);
}

/** A string with every JWT in it replaced by the access token's placeholder. */
export function redactString(text: string): string {
  return text.replace(JWT, PLACEHOLDERS.accessToken);
}

/**
 * A JSON value with its secrets replaced, at any depth: the values of `password` (and fields
 * named like one), `accessToken`, `refreshToken` (and their snake_case names) by
 * {@link PLACEHOLDERS}, and a JWT inside any other string by the access token's placeholder.
 * Returns a copy; the input is not changed.
 */
export function redactBody(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const placeholder = secretPlaceholder(name);
    copy[name] =
      placeholder !== undefined && typeof field === 'string' ? placeholder : redactBody(field);
  }
  return copy;
}

/** An Authorization header's value with its credentials replaced (the scheme kept). */
export function redactAuthorization(value: string): string {
  const scheme = /^(\S+)\s/.exec(value)?.[1];
  if (scheme === undefined) return PLACEHOLDERS.accessToken;
  return `${scheme} ${/^bearer$/i.test(scheme) ? PLACEHOLDERS.accessToken : PLACEHOLDERS.password}`;
}

/** Header values with their secrets replaced: Authorization's credentials, JWTs elsewhere. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    copy[name] = name === 'authorization' ? redactAuthorization(value) : redactString(value);
  return copy;
}

/** Query parameters with secrets replaced: `access_token` and the like by name, JWTs in any. */
export function redactQuery(query: [string, string][]): [string, string][] {
  return query.map(([name, value]) => [name, secretPlaceholder(name) ?? redactString(value)]);
}

/** A recorded request with no secret left in it. */
export function redactRequest(request: RecordedRequest): RecordedRequest {
  const { body, ...rest } = request;
  return {
    ...rest,
    path: redactString(request.path),
    query: redactQuery(request.query),
    headers: redactHeaders(request.headers),
    ...(body === undefined ? {} : { body: redactBody(body) }),
  };
}

/** A recorded answer with no secret left in it. */
export function redactResponse(response: RecordedResponse): RecordedResponse {
  const { body, ...rest } = response;
  return {
    ...rest,
    headers: redactHeaders(response.headers),
    ...(body === undefined ? {} : { body: redactBody(body) }),
  };
}
