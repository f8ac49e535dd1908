/** One answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T>(): T;
}

/**
 * Sends one request below an API base (`http://127.0.0.1:PORT/api/v1`) and reads the whole
 * answer: a bearer `token` when given, JSON when there is a body.
 *
 * @example
 * const answer = await callApi(api, 'GET', '/users/1', { token });
 */
export async function callApi(
  api: string,
  method: string,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<Answer> {
  const { token, headers, ...rest } = init;
  const sent = new Headers(headers);
  if (token !== undefined) sent.set('Authorization', `Bearer ${token}`);
  if (rest.body !== undefined && !sent.has('Content-Type'))
    sent.set('Content-Type', 'application/json');
  const res = await fetch(api + path, { method, headers: sent, ...rest });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

/** How many answers had each status, e.g. `{ 201: 1, 409: 199 }`. */
export function countStatuses(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
