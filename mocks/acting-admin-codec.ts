import type { Dataset, UserRecord } from '../core/domain/dataset.js';
import type { AccessTokenClaims, AccessTokenCodec } from '../core/domain/ports.js';
import { ADMIN_ROLE_ID } from '../core/domain/role-ids.js';

/**
 * The token codec of the mocks with `auth: 'off'`: one opaque, unguessable token stands for the
 * data set's first ADMIN who is not BLOCKED (lowest id; Ada Admin in the demo data), resolved
 * at every request, so a request without a token acts as an ADMIN without a JWT signed (HMAC,
 * base64url, JSON) per request. Every other token goes to the real codec, so a test that logs
 * in and sends its own token is still judged by its token.
 *
 * @example
 * const tokens = actingAdminCodec(hs256, 'apikit-auth-off.1f...', () => store.data, 900);
 */
export function actingAdminCodec(
  codec: AccessTokenCodec,
  token: string,
  data: () => Dataset,
  ttlSeconds: number,
): AccessTokenCodec {
  let last: UserRecord | undefined;
  const actingAdmin = (): UserRecord => {
    const users = data().users;
    // The last one found, while it still qualifies: no walk over the users per request.
    if (last && users[String(last.id)] === last && qualifies(last)) return last;
    last = undefined;
    for (const key in users) {
      const user = users[key];
      if (user && qualifies(user) && (!last || user.id < last.id)) last = user;
    }
    if (!last)
      throw new Error(
        "auth: 'off' has no ADMIN to act as: the data set holds no ADMIN who is not BLOCKED",
      );
    return last;
  };
  return {
    sign: (claims, ttl, now) => codec.sign(claims, ttl, now),
    async verify(presented, now): Promise<AccessTokenClaims> {
      if (presented !== token) return codec.verify(presented, now);
      const user = actingAdmin();
      const iat = Math.floor(now.getTime() / 1000);
      return { sub: String(user.id), name: user.name, role: 'ADMIN', iat, exp: iat + ttlSeconds };
    },
  };
}

function qualifies(user: UserRecord): boolean {
  return user.roleIds.includes(ADMIN_ROLE_ID) && user.status !== 'BLOCKED';
}
