import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { runConformance } from '../../conformance/run-conformance.js';
import { validateSpecFile } from '../../spec/validate-spec.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-injection/fault-proxy.js';
import type { Fault } from '../support/fault-injection/faults.js';
import { libraryFaults } from './library-faults.js';
import { ACCOUNTS } from './library-store.js';
import { LIBRARY_SPEC, startLibraryServer, type LibraryServer } from './library-server.js';

/**
 * The runner is not tuned to the User/Order contract: held to a second API of another shape
 * (library.yaml: string ids, books made under authors and read at the top level, a loan state
 * machine, an opaque session, its own problem types and request id header), served faithfully
 * by library-server.ts, a full default run finds nothing wrong; and each broken variant of
 * library-faults.ts is caught by the check that reads the broken rule from the description's
 * own x-apikit-* extensions (issue 32, decision 0116).
 */

const SEED = 116;
const [member, librarian] = ACCOUNTS as [(typeof ACCOUNTS)[0], (typeof ACCOUNTS)[0]];
const CREDENTIALS = {
  username: member.username,
  password: member.password,
  adminUsername: librarian.username,
  adminPassword: librarian.password,
};

interface Target {
  server: LibraryServer;
  proxy: FaultProxy;
  close(): Promise<void>;
}

/** A fresh library (nothing left from another run) behind a fault proxy. */
async function startTarget(): Promise<Target> {
  const server = await startLibraryServer();
  const proxy = await startFaultProxy(server.url, {
    username: librarian.username,
    password: librarian.password,
  });
  return {
    server,
    proxy,
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

const run = (target: Target, include?: string[]): Promise<ConformanceReport> =>
  runConformance({
    baseUrl: `${target.proxy.url}/lib`,
    specPath: LIBRARY_SPEC,
    seed: SEED,
    ...CREDENTIALS,
    ...(include ? { include } : {}),
  });

const failuresOf = (report: ConformanceReport) =>
  report.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.check} ${r.operationId}: ${r.message}`);

describe('the runner against a second API (the lending library)', () => {
  let target: Target;
  let report: ConformanceReport;
  beforeAll(async () => {
    target = await startTarget();
    report = await run(target);
    console.log(
      `[library] results ${JSON.stringify(report.summary.results)} in ${report.summary.durationMs} ms`,
    );
  }, 60_000);
  afterAll(() => target?.close());

  it('its description is valid', async () => {
    const validation = await validateSpecFile(LIBRARY_SPEC);
    expect(validation.problems).toEqual([]);
  });

  it('a full default run, through the transparent proxy, finds no violation', () => {
    expect(failuresOf(report)).toEqual([]);
    expect(report.summary.specTitle).toBe('Lending Library');
    expect(report.summary.results.passed).toBeGreaterThan(400);
  });

  it("the checks of the library's own extensions ran, and passed", () => {
    const passed = new Set(
      report.results.filter((r) => r.status === 'passed').map((r) => `${r.check} ${r.operationId}`),
    );
    const expected = [
      'unique_fields createAuthorBook',
      'unique_fields replaceBook',
      'unknown_references createAuthorBook',
      'state_transitions createBookLoan',
      'guarded_writes updateLoan',
      'delete_cascade deleteAuthor',
      'delete_cascade deleteBook',
      'fixed_catalog listGenres',
      'sort_honoured listBooks',
      'sort_honoured listLoans',
      'id_allocation createBookLoan',
      'session_tokens openSession',
      'admin_role_required listLoans',
      'paging_invariants listAuthors',
      'patch_semantics updateAuthor',
      'if_match_precondition replaceBook',
      'strict_routing listBooks',
      'request_id_echo listGenres',
      'served_documents openSession',
    ];
    expect(expected.filter((e) => !passed.has(e))).toEqual([]);
  });
});

describe('broken variants of the library, each caught by its check', () => {
  it('has at least 8 faults, uniquely named', () => {
    expect(libraryFaults.length).toBeGreaterThanOrEqual(8);
    expect(new Set(libraryFaults.map((f) => f.name)).size).toBe(libraryFaults.length);
  });

  const caught = async (fault: Fault) => {
    const target = await startTarget();
    try {
      target.proxy.use(fault.create());
      const report = await run(target, fault.include);
      return Object.keys(report.summary.failuresByCheck);
    } finally {
      await target.close();
    }
  };

  // Each on a library of its own: they run side by side.
  for (const fault of libraryFaults)
    it.concurrent(
      `${fault.name}: caught by ${fault.expectedCheck}`,
      { timeout: 45_000 },
      async () => {
        expect(await caught(fault), fault.description).toContain(fault.expectedCheck);
      },
    );
});
