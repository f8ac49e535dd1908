import type {
  InteractionFile,
  RecordedInteraction,
} from '../../spec/interactions/interaction-file.js';
import type { SpecOperation } from '../../spec/operations.js';
import type { InteractionVerdicts } from './consumer-interactions.js';
import { fieldPaths } from './value-shape.js';
import { matchPath } from './replay-state.js';

/** One thing of an operation the consumer uses, and the tests that rely on it. */
export interface ConsumerUse {
  /** A parameter's or header's name, or a body field's path (`content[].email`). */
  name: string;
  /** Where: `path`, `query`, `header` (request), `body` (request), or the response's `status`/`header`/`body`. */
  in: 'path' | 'query' | 'header' | 'body' | 'response-header' | 'response-body';
  /** The statuses of the answers it was seen in (response uses), or sent with (request uses). */
  statuses: number[];
  /** JSON types seen, for body fields. */
  types?: string[];
  tests: string[];
}

/** An operation the consumer calls: what it sends, what it reads, and who relies on it. */
export interface ConsumerOperation {
  operationId: string;
  method: string;
  path: string;
  statuses: number[];
  interactions: { key: string; status: number; verdict?: 'passed' | 'failed' | 'skipped' }[];
  tests: string[];
  uses: ConsumerUse[];
}

/**
 * What a frontend's recording relies on (decision 0113): the report's `consumer` field, the
 * HTML report's "Consumer coverage" page, a console line. A backend team reads in it what it
 * cannot change without breaking that frontend.
 */
export interface ConsumerCoverage {
  consumer: string;
  /** The contract the mocks answered by (the recording's), and whether it is the run's. */
  contract: { title: string; version: string; sameAsRun: boolean };
  interactions: { total: number; passed: number; failed: number; skipped: number };
  tests: number;
  operations: ConsumerOperation[];
  /** Operations of the contract the recording never calls: free to change, as far as it knows. */
  unused: string[];
}

/** The consumer coverage of a recording, with the replay's verdicts where it ran. */
export function consumerCoverage(
  file: InteractionFile,
  operations: SpecOperation[],
  run: { title: string; version: string },
  verdicts: InteractionVerdicts = new Map(),
): ConsumerCoverage {
  const byOperation = new Map<string, RecordedInteraction[]>();
  for (const i of file.interactions)
    byOperation.set(i.operationId, [...(byOperation.get(i.operationId) ?? []), i]);
  const count = (v: string) => [...verdicts.values()].filter((x) => x === v).length;
  const allTests = new Set(file.interactions.flatMap(testNames));
  const known = operations.filter((op) => byOperation.has(op.operationId));
  const strangers = [...byOperation.keys()].filter(
    (id) => !operations.some((o) => o.operationId === id),
  );
  return {
    consumer: file.consumer,
    contract: {
      ...file.contract,
      sameAsRun: file.contract.title === run.title && file.contract.version === run.version,
    },
    interactions: {
      total: file.interactions.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
    },
    tests: allTests.size,
    operations: [
      ...known.map((op) =>
        operationUse(
          op.operationId,
          op.method.toUpperCase(),
          op.path,
          byOperation.get(op.operationId) ?? [],
          verdicts,
        ),
      ),
      ...strangers.map((id) => {
        const list = byOperation.get(id) ?? [];
        return operationUse(
          id,
          list[0]?.request.method ?? '?',
          list[0]?.request.path ?? '?',
          list,
          verdicts,
        );
      }),
    ],
    unused: operations
      .filter((op) => op.method !== 'options' && !byOperation.has(op.operationId))
      .map((op) => op.operationId),
  };
}

function operationUse(
  operationId: string,
  method: string,
  path: string,
  list: RecordedInteraction[],
  verdicts: InteractionVerdicts,
): ConsumerOperation {
  const uses = new Map<string, ConsumerUse>();
  const add = (
    where: ConsumerUse['in'],
    name: string,
    status: number,
    tests: string[],
    types?: string[],
  ) => {
    const key = `${where}\u0000${name}`;
    const use = uses.get(key) ?? {
      name,
      in: where,
      statuses: [],
      tests: [],
      ...(types ? { types: [] } : {}),
    };
    use.statuses = sortedUnique([...use.statuses, status]);
    use.tests = sortedUnique([...use.tests, ...tests]);
    if (types) use.types = sortedUnique([...(use.types ?? []), ...types]);
    uses.set(key, use);
  };
  for (const i of list) {
    const tests = testNames(i);
    const status = i.response.status;
    for (const name of Object.keys(matchPath(path, i.request.path) ?? {}))
      add('path', name, status, tests);
    for (const [name] of i.request.query) add('query', name, status, tests);
    for (const name of Object.keys(i.request.headers)) add('header', name, status, tests);
    for (const f of i.request.body === undefined ? [] : fieldPaths(i.request.body))
      add('body', f.path, status, tests, f.types);
    for (const name of Object.keys(i.response.headers)) add('response-header', name, status, tests);
    for (const f of i.response.body === undefined ? [] : fieldPaths(i.response.body))
      add('response-body', f.path, status, tests, f.types);
  }
  const order: ConsumerUse['in'][] = [
    'path',
    'query',
    'header',
    'body',
    'response-header',
    'response-body',
  ];
  return {
    operationId,
    method,
    path,
    statuses: sortedUnique(list.map((i) => i.response.status)),
    interactions: list.map((i) => ({
      key: i.key,
      status: i.response.status,
      ...(verdicts.has(i.key) ? { verdict: verdicts.get(i.key) } : {}),
    })),
    tests: sortedUnique(list.flatMap(testNames)),
    uses: [...uses.values()].sort(
      (a, b) => order.indexOf(a.in) - order.indexOf(b.in) || a.name.localeCompare(b.name),
    ),
  };
}

function sortedUnique<T extends string | number>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** "file > name" of each test that made the interaction, as the reports name them. */
export function testNames(interaction: RecordedInteraction): string[] {
  return interaction.tests.map((t) => (t.name ? `${t.file} > ${t.name}` : t.file));
}
