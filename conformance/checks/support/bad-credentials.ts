import { createHmac, randomBytes } from 'node:crypto';

/** A bearer credential that must be refused, and whether a token was presented at all. */
export interface BadCredential {
  name: string;
  /** The Authorization header value, or null to send none. */
  authorization: string | null;
  /** True when a bearer token is in the request (RFC 6750: `error="invalid_token"` is due). */
  presented: boolean;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The claims of a JWT, read without verifying; undefined when it is not one. */
export function jwtClaims(token: string | undefined): Record<string, unknown> | undefined {
  const part = token?.split('.')[1];
  if (!part) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An HS256 JWT of `claims` signed with `key`. */
export function signHs256(claims: Record<string, unknown>, key: Buffer): string {
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** An unsecured JWT (`alg: none`, empty signature) of `claims`. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

/**
 * The credentials every secured operation must refuse with 401: none, a malformed token, and
 * forgeries of the user's token (signed with another key, `alg: none`, expired). Without a
 * user token (or when it is not a JWT), the forgeries carry made-up claims.
 *
 * @example
 * badCredentials(userToken).map((c) => c.name);
 * // ['no Authorization', 'malformed token', 'token signed with another key', ...]
 */
export function badCredentials(userToken: string | undefined, now = Date.now()): BadCredential[] {
  const seconds = Math.floor(now / 1000);
  const claims = jwtClaims(userToken) ?? { sub: '1', iat: seconds, exp: seconds + 900 };
  // The user's own claims while they are live, so that only the signature or alg is wrong.
  const live =
    typeof claims.exp === 'number' && claims.exp > seconds + 60
      ? claims
      : { ...claims, iat: seconds, exp: seconds + 900 };
  const expired = { ...claims, iat: seconds - 7200, exp: seconds - 3600 };
  const key = () => randomBytes(32);
  return [
    { name: 'no Authorization', authorization: null, presented: false },
    { name: 'malformed token', authorization: 'Bearer not.a.jwt', presented: true },
    {
      name: 'token signed with another key',
      authorization: `Bearer ${signHs256(live, key())}`,
      presented: true,
    },
    { name: 'alg none token', authorization: `Bearer ${unsignedJwt(live)}`, presented: true },
    {
      name: 'expired token (signed with another key)',
      authorization: `Bearer ${signHs256(expired, key())}`,
      presented: true,
    },
  ];
}
