/**
 * What the PostgreSQL phase measures (decision 0088): the subjects, the requests, and every
 * figure it collects for the report (bench/postgres/pg-report.ts).
 */
import type { LoadResult } from '../load-spec.js';
import type { SeededDatabase } from './pg-database.js';

/** The JSON file (`apikit serve --db`), PostgreSQL with one instance, with three. */
export type PgSubjectKey = 'file' | 'pg1' | 'pg3';
export type PgRequestKey = 'get-user' | 'list-first' | 'list-deep' | 'post';

export const PG_SUBJECT_NAMES: Record<PgSubjectKey, string> = {
  file: 'apikit serve, JSON file',
  pg1: 'apikit serve, PostgreSQL, 1 instance',
  pg3: 'apikit serve, PostgreSQL, 3 instances',
};

/** The JSON-file subject runs up to this size: where the bench already has it (writes). */
export const FILE_STORE_MAX_USERS = 100_000;

/** The page size of both list requests. */
const PAGE_SIZE = 20;

/** A request of the phase at a store of `users` users. */
export interface PgRequest {
  key: PgRequestKey;
  /** For the tables. */
  label: string;
  method: 'GET' | 'POST';
  path: string;
}

/**
 * The four requests: a user from the middle of the table, the first page, a page 10 pages from
 * the end (an offset of `users - 200`), and a create with a unique email.
 */
export function pgRequests(users: number): PgRequest[] {
  const deep = Math.max(0, Math.floor(users / PAGE_SIZE) - 10);
  const middle = Math.max(1, Math.floor(users / 2));
  return [
    { key: 'get-user', label: `GET /users/${middle}`, method: 'GET', path: `/users/${middle}` },
    {
      key: 'list-first',
      label: `GET /users?page=0&size=${PAGE_SIZE}`,
      method: 'GET',
      path: `/users?page=0&size=${PAGE_SIZE}`,
    },
    {
      key: 'list-deep',
      label: `GET /users?page=${deep}&size=${PAGE_SIZE}`,
      method: 'GET',
      path: `/users?page=${deep}&size=${PAGE_SIZE}`,
    },
    { key: 'post', label: 'POST /users', method: 'POST', path: '/users' },
  ];
}

/** Every figure of the phase. Lists are run by run (undefined where a measurement failed). */
export interface PgFigures {
  databases: SeededDatabase[];
  /** Express 5 hello, measured at the start of every run of every size: the baseline. */
  baselines: Map<number, (LoadResult | undefined)[]>;
  /** By {@link pgLoadId}. */
  loads: Map<string, (LoadResult | undefined)[]>;
}

export function emptyPgFigures(): PgFigures {
  return { databases: [], baselines: new Map(), loads: new Map() };
}

export function pgLoadId(key: PgSubjectKey, users: number, request: PgRequestKey): string {
  return `${key}@${users}:${request}`;
}
