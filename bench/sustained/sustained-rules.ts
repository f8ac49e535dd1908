/** The sustained load's rules and mix, shared by its driver and its load generator. */

export type Kind = keyof typeof EXPECTED;

/** Rules: only these statuses (401 is the wrong-password login, meant to fail). */
export const EXPECTED = {
  getUser: [200],
  listUsers: [200],
  createUser: [201],
  patchUser: [200],
  login: [200],
  badLogin: [401],
} satisfies Record<string, number[]>;
/**
 * RSS may grow with the data (the live data set in memory is about twice its JSON, and a flush
 * holds one more JSON string of it), plus this much: anything beyond is a leak.
 */
export const rssBound = (start: number, dataGrowth: number) =>
  start * 1.5 + 50 * MiB + 4 * dataGrowth;
/** p99 of the last 10 s against the first: generous, a shared 2-core machine is noisy. */
export const p99Bound = (start: number) => Math.round(start * 3 + 50);
export const MiB = 1024 * 1024;
/** One connection's cycle (40 requests): mostly reads, some writes, 5% logins (scrypt). */
export const MIX: [keyof typeof EXPECTED, number][] = [
  ['getUser', 20],
  ['listUsers', 8],
  ['createUser', 5],
  ['patchUser', 5],
  ['login', 1],
  ['badLogin', 1],
];
export const PASSWORDS = { admin: 'sustained-admin-password', user: 'sustained-user-password' };
export const SECRET = 'sustained-load-secret-sustained-load-secret-0123456789';
export const PATCH_POOL = 100;

export interface GeneratorConfig {
  url: string;
  token: string;
  connections: number;
  durationS: number;
  readIds: number[];
  patchIds: number[];
}

export interface GeneratorResult {
  /** Latencies (ms) of the answers in each second of the run. */
  perSecond: number[][];
  statuses: Record<string, Record<string, number>>;
  /** Emails of the users whose creation was answered 201: each must be in the file. */
  created: string[];
  errors: Record<string, number>;
  timeouts: number;
}

export const mib = (bytes: number) => Math.round(bytes / MiB);
