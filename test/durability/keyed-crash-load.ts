import { listAllUsers, REQUEST_TIMEOUT_MS } from './api-calls.js';

/*
 * Keyed creates under a kill (decision 0109): orders, which have no unique field (a second run
 * is a second order), and users, whose e-mail is unique (a second run answers 409
 * duplicate-email instead of the replay). Every request carries its own Idempotency-Key; its
 * key is in what it creates (the order's product, the user's e-mail), so that what the store
 * holds can be counted per key through the API.
 */

/** One keyed create, sent again with the same key and body until it is answered. */
export interface KeyedRequest {
  key: string;
  kind: 'order' | 'user';
  path: string;
  body: string;
}

/** An answer the client got. */
export interface KeyedAnswer {
  status: number;
  body: string;
}

/** The user whose orders the load places (the `empty` and `demo` data sets' USER account). */
export const ORDERING_USER = 2;

/**
 * `count` keyed creates of a round: two orders for every user. Keys and what they create
 * carry `tag` (unique per test run) and the round.
 *
 * @example
 * const requests = keyedRequests('file-1', 300);
 */
export function keyedRequests(tag: string, count: number): KeyedRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const key = `${tag}-${i}`;
    return i % 3 === 2
      ? {
          key,
          kind: 'user',
          path: '/users',
          body: JSON.stringify({ name: `Keyed ${i}`, email: `${key}@keyed.example` }),
        }
      : {
          key,
          kind: 'order',
          path: `/users/${ORDERING_USER}/orders`,
          body: JSON.stringify({ product: `keyed ${key}`, categoryId: 1 }),
        };
  });
}

/**
 * Sends one request with its key; undefined when no answer came (the connection broke, was
 * refused, or the deadline passed): the outcome is unknown to the client.
 */
export async function sendKeyed(
  api: string,
  token: string,
  request: KeyedRequest,
): Promise<KeyedAnswer | undefined> {
  try {
    const res = await fetch(api + request.path, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': request.key,
      },
      body: request.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, body: await res.text() };
  } catch {
    return undefined;
  }
}

/** An answer that tells the client nothing of the outcome: send again. */
function unknownOutcome(answer: KeyedAnswer | undefined): boolean {
  return answer === undefined || answer.status === 502 || answer.status === 503;
}

/** What the load before the kill saw. */
export interface LoadBeforeKill {
  /** Answered with a known outcome (a 201, or anything but 502/503), by key. */
  answered: Map<string, KeyedAnswer>;
  /** Sent, and cut off by the kill (no answer, or the balancer's 502). */
  cut: KeyedRequest[];
  /** Never sent: the kill came first. */
  unsent: KeyedRequest[];
}

/**
 * Sends `requests` from `concurrency` workers; once `killAfter` of them are answered, calls
 * `kill` (SIGKILL of a server) and sends no more. Bounded: every request is sent once at most.
 */
export async function loadUntilKill(options: {
  api: string;
  token: string;
  requests: readonly KeyedRequest[];
  concurrency: number;
  killAfter: number;
  kill: () => Promise<void>;
}): Promise<LoadBeforeKill> {
  const { api, token, requests, concurrency, killAfter, kill } = options;
  const answered = new Map<string, KeyedAnswer>();
  const cut: KeyedRequest[] = [];
  let next = 0;
  let killing: Promise<void> | undefined;
  const worker = async () => {
    while (killing === undefined && next < requests.length) {
      const request = requests[next++]!;
      const answer = await sendKeyed(api, token, request);
      if (unknownOutcome(answer)) cut.push(request);
      else answered.set(request.key, answer!);
      if (answered.size >= killAfter) killing ??= kill();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await (killing ?? kill());
  return { answered, cut, unsent: requests.slice(next) };
}

/** What the retries saw. */
export interface Retries {
  answers: Map<string, KeyedAnswer>;
  /** Requests sent in all. */
  sent: number;
  /** Answers 409 idempotency-key-in-use: a claim still held by a request that died. */
  inUse: number;
  /** Answers without a known outcome (no answer, 502, 503). */
  unknown: number;
  /** Requests still without a known outcome after their last try. */
  unanswered: string[];
}

/**
 * Sends each request again with its key and body until its outcome is known: a 409
 * `idempotency-key-in-use`, a 502, a 503 or no answer wait `pauseMs` and try again, at most
 * `tries` times (so at most tries x pauseMs per request: far less than the claims' 60 s lease).
 */
export async function retryUntilKnown(options: {
  api: () => string;
  token: string;
  requests: readonly KeyedRequest[];
  concurrency: number;
  tries: number;
  pauseMs: number;
}): Promise<Retries> {
  const { api, token, requests, concurrency, tries, pauseMs } = options;
  const result: Retries = { answers: new Map(), sent: 0, inUse: 0, unknown: 0, unanswered: [] };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      let known: KeyedAnswer | undefined;
      for (let attempt = 0; attempt < tries && known === undefined; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        const answer = await sendKeyed(api(), token, request);
        result.sent += 1;
        if (unknownOutcome(answer)) result.unknown += 1;
        else if (answer!.status === 409 && answer!.body.includes('idempotency-key-in-use'))
          result.inUse += 1;
        else known = answer;
      }
      if (known === undefined) result.unanswered.push(request.key);
      else result.answers.set(request.key, known);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return result;
}

/** What the store holds for the keys, and what the answers say of it. */
export interface ExactlyOnce {
  /** Keys whose order or user the store holds more than once. */
  duplicates: string[];
  /** Keys whose order or user the store does not hold, or whose final answer is not a 201. */
  lost: string[];
  /** Keys whose 201 names another resource than the one the store holds for the key. */
  mismatched: string[];
}

/**
 * Counts, through the API, the orders and users each key created, and compares them with the
 * final answers: exactly one each, named by a 201.
 */
export async function judgeExactlyOnce(
  api: string,
  token: string,
  requests: readonly KeyedRequest[],
  finals: ReadonlyMap<string, KeyedAnswer>,
): Promise<ExactlyOnce> {
  const res = await fetch(`${api}/users/${ORDERING_USER}/orders`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`GET orders: ${res.status} ${await res.text()}`);
  const held = new Map<string, number[]>();
  const note = (key: string, id: number) => held.set(key, [...(held.get(key) ?? []), id]);
  for (const order of (await res.json()) as Array<{ id: number; product: string }>) {
    if (order.product.startsWith('keyed ')) note(order.product.slice('keyed '.length), order.id);
  }
  for (const user of (await listAllUsers(api, token)).values()) {
    if (user.email.endsWith('@keyed.example')) note(user.email.split('@')[0]!, user.id);
  }
  const verdict: ExactlyOnce = { duplicates: [], lost: [], mismatched: [] };
  for (const { key } of requests) {
    const ids = held.get(key) ?? [];
    const final = finals.get(key);
    if (ids.length > 1) verdict.duplicates.push(`${key}: ${ids.join(', ')}`);
    if (ids.length === 0 || final?.status !== 201) {
      verdict.lost.push(`${key}: ${ids.length} held, answered ${final?.status} ${final?.body}`);
    } else if ((JSON.parse(final.body) as { id: number }).id !== ids[0]) {
      verdict.mismatched.push(`${key}: answered ${final.body}, held ${ids.join(', ')}`);
    }
  }
  return verdict;
}
