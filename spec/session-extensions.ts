import type { OpenAPIV3 } from 'openapi-types';

/**
 * The root `x-apikit-session` and `x-apikit-roles` extensions (decisions 0082, 0083), read here
 * and exported through `apikit-extensions.ts` like every other `x-apikit-*` reader. A value of
 * the wrong type counts as absent: the description is a user's file.
 */

/** What the access token says about its subject, and how to read the subject back. */
export interface SessionClaims {
  /** operationId of the GET of the subject; its one path parameter is the token's `sub`. */
  subject: string;
  /** The subject's property equal to the login username (compared case-insensitively). */
  username: string | undefined;
  /** claim -> the subject's property it repeats (compared as strings; `sub` must be a string). */
  fields: Record<string, string>;
  /** The claim naming the caller's role: `holder` when they hold that role, else `otherwise`. */
  role: { claim: string; holder: string; otherwise: string } | undefined;
  /** The token answer's property giving the access token's lifetime in seconds (`exp - iat`). */
  lifetime: string | undefined;
}

/** `x-apikit-session`: the login, refresh and logout operations and what tokens mean. */
export interface SessionDeclaration {
  login: string;
  refresh: string | undefined;
  logout: string | undefined;
  /** The username matches in any letter case. */
  usernameCaseInsensitive: boolean;
  /** The status of a login with a known username and a wrong password (401 by default). */
  wrongCredentialsStatus: number;
  /** RFC 6750: `error="invalid_token"` on a 401 exactly when a bearer token was presented. */
  bearerErrors: boolean;
  /** The status of a token sent both in `Authorization` and as `access_token` (RFC 6750 2). */
  twoWaysStatus: number | undefined;
  /** The access token is a JWT with these claims; undefined: opaque. */
  claims: SessionClaims | undefined;
  /**
   * Operations on the subject (its id as their one path parameter) that suspend and restore
   * it: while suspended, its access and refresh tokens get `refusedStatus` and a login
   * `loginStatus`; after `unblock` its unexpired access tokens work again.
   */
  suspension:
    { block: string; unblock: string; loginStatus: number; refusedStatus: number } | undefined;
}

/** A rule about who holds a role: `permanent` (it cannot be removed) or `at-least-one`. */
export interface RoleInvariant {
  role: string;
  rule: 'permanent' | 'at-least-one';
  /** The status of a request that would break it (409 by default). */
  status: number;
  /** The operations refused when they would break it (role removal included). */
  operations: string[];
}

/** `x-apikit-roles`: the role operations, the protected role and the invariants. */
export interface RolesDeclaration {
  /** The catalog of roles (`{id, name}` items); list: the roles a user holds. */
  catalog: string;
  list: string;
  assign: string;
  remove: string;
  /** The catalog answers exactly the first example of its 200 answer (a fixed catalog). */
  fixedCatalog: boolean;
  /** Role checks read the caller's current roles, so a change applies to issued tokens. */
  readAtRequest: boolean;
  /** Changing a user holding `role` with `operations` needs `role` (else `status`). */
  protected: { role: string; operations: string[]; status: number } | undefined;
  invariants: RoleInvariant[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown, fallback: number): number =>
  Number.isInteger(v) ? (v as number) : fallback;
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * The description's `x-apikit-session`, or undefined without one (or without `login`).
 *
 * @example
 * sessionDeclaration(spec)?.refresh; // 'refreshToken'
 */
export function sessionDeclaration(doc: OpenAPIV3.Document): SessionDeclaration | undefined {
  const d: unknown = Reflect.get(doc, 'x-apikit-session');
  if (!isObj(d) || !str(d.login)) return undefined;
  const s = d.suspension;
  const suspension =
    isObj(s) && str(s.block) && str(s.unblock)
      ? {
          block: s.block as string,
          unblock: s.unblock as string,
          loginStatus: int(s.loginStatus, 403),
          refusedStatus: int(s.refusedStatus, 401),
        }
      : undefined;
  return {
    login: d.login as string,
    refresh: str(d.refresh),
    logout: str(d.logout),
    usernameCaseInsensitive: d.usernameCaseInsensitive === true,
    wrongCredentialsStatus: int(d.wrongCredentialsStatus, 401),
    bearerErrors: d.bearerErrors === true,
    twoWaysStatus: Number.isInteger(d.twoWaysStatus) ? (d.twoWaysStatus as number) : undefined,
    claims: claimsOf(d.claims),
    suspension,
  };
}

function claimsOf(c: unknown): SessionClaims | undefined {
  if (!isObj(c) || !str(c.subject)) return undefined;
  const fields = isObj(c.fields)
    ? Object.fromEntries(Object.entries(c.fields).filter(([, v]) => typeof v === 'string'))
    : {};
  const r = c.role;
  const role =
    isObj(r) && str(r.claim) && str(r.holder) && str(r.otherwise)
      ? { claim: r.claim as string, holder: r.holder as string, otherwise: r.otherwise as string }
      : undefined;
  return {
    subject: c.subject as string,
    username: str(c.username),
    fields: fields as Record<string, string>,
    role,
    lifetime: str(c.lifetime),
  };
}

/**
 * The description's `x-apikit-roles`, or undefined without one (or without its operations).
 *
 * @example
 * rolesDeclaration(spec)?.invariants.map((i) => i.rule); // ['permanent', 'at-least-one']
 */
export function rolesDeclaration(doc: OpenAPIV3.Document): RolesDeclaration | undefined {
  const d: unknown = Reflect.get(doc, 'x-apikit-roles');
  if (!isObj(d)) return undefined;
  const [catalog, list, assign, remove] = [d.catalog, d.list, d.assign, d.remove].map(str);
  if (!catalog || !list || !assign || !remove) return undefined;
  const p = d.protected;
  const invariants = (Array.isArray(d.invariants) ? d.invariants : []).flatMap((i: unknown) => {
    if (!isObj(i) || !str(i.role) || (i.rule !== 'permanent' && i.rule !== 'at-least-one'))
      return [];
    const rule: RoleInvariant['rule'] = i.rule;
    return [
      { role: i.role as string, rule, status: int(i.status, 409), operations: strs(i.operations) },
    ];
  });
  return {
    catalog,
    list,
    assign,
    remove,
    fixedCatalog: d.fixedCatalog === true,
    readAtRequest: d.readAtRequest === true,
    protected:
      isObj(p) && str(p.role)
        ? { role: p.role as string, operations: strs(p.operations), status: int(p.status, 403) }
        : undefined,
    invariants,
  };
}
