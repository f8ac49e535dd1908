/** Small typed wrappers over `fetch` for the durability tests; every call has a deadline. */

/** What the durability tests read back of a user. */
export interface UserSeen {
  id: number;
  name: string;
  email: string;
  age: number | null;
  updatedAt: string;
}

/** A deadline for every request, so that a hung server fails the test instead of stalling it. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Headers of an authenticated JSON request. */
export function authJson(token: string, contentType = 'application/json'): HeadersInit {
  return { Authorization: `Bearer ${token}`, 'Content-Type': contentType };
}

/**
 * Logs in through the API and returns the access token.
 *
 * @example
 * const token = await login(api, 'admin@example.com', 'secret');
 */
export async function login(api: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (res.status !== 200)
    throw new Error(`login as ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * Every user, read page by page (size 100, by id) through `GET /users`.
 *
 * @example
 * const users = await listAllUsers(api, token); // Map id -> user
 */
export async function listAllUsers(api: string, token: string): Promise<Map<number, UserSeen>> {
  const users = new Map<number, UserSeen>();
  for (let page = 0; ; page += 1) {
    const res = await fetch(`${api}/users?size=100&page=${page}&sort=id`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`GET /users page ${page}: ${res.status}`);
    const body = (await res.json()) as { content: UserSeen[]; totalPages: number };
    for (const user of body.content) {
      if (users.has(user.id)) throw new Error(`user ${user.id} listed twice`);
      users.set(user.id, user);
    }
    if (page + 1 >= body.totalPages) return users;
  }
}
