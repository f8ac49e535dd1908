import { describe, expect, it } from 'vitest';
import { ConformanceSetupError } from './conformance-options.js';
import { FUZZ_CHECK_NAMES } from './fuzz/fuzz-checks.js';
import { IMPLIED_FUZZ_CASES, listChecks, planRun } from './run-plan.js';

const baseUrl = 'http://127.0.0.1:9/api/v1';
const names = (plan: Awaited<ReturnType<typeof planRun>>) => plan.checks.map((c) => c.name);

describe('planRun: the checks of a run', () => {
  it('accepts every name --list-checks prints', async () => {
    for (const { name } of listChecks()) {
      const plan = await planRun({ baseUrl, checks: [name] });
      expect(names(plan), name).toContain(name);
    }
  });

  it('runs operation_implemented first, whatever the checks named, unless excluded', async () => {
    const full = await planRun({ baseUrl });
    expect(full.checks.find((c) => c.kind === 'scenario')?.name).toBe('operation_implemented');
    expect(names(await planRun({ baseUrl, checks: ['absent_resource'] }))).toEqual([
      'operation_implemented',
      'absent_resource',
    ]);
    expect(
      names(
        await planRun({
          baseUrl,
          checks: ['absent_resource'],
          excludeChecks: ['operation_implemented'],
        }),
      ),
    ).toEqual(['absent_resource']);
  });

  it('brings the fuzz phase with a fuzz check named without fuzz', async () => {
    const plan = await planRun({ baseUrl, checks: ['fuzz_read_back'] });
    expect(plan.fuzz).toBeDefined();
    expect(names(plan)).toEqual(['operation_implemented', 'fuzz_read_back']);
    const both = await planRun({ baseUrl, checks: ['absent_resource'], fuzz: { perOperation: 1 } });
    expect(names(both)).toEqual(['operation_implemented', 'absent_resource', ...FUZZ_CHECK_NAMES]);
    expect(IMPLIED_FUZZ_CASES).toBeGreaterThan(0);
    expect((await planRun({ baseUrl, checks: ['absent_resource'] })).fuzz).toBeUndefined();
  });

  it('leaves out --exclude-checks, fuzz checks too', async () => {
    const all = names(await planRun({ baseUrl }));
    const fewer = names(
      await planRun({ baseUrl, excludeChecks: ['absent_resource', 'strict_routing'] }),
    );
    expect(fewer).toEqual(all.filter((n) => n !== 'absent_resource' && n !== 'strict_routing'));
    const fuzzed = names(
      await planRun({ baseUrl, fuzz: { perOperation: 1 }, excludeChecks: ['fuzz_read_back'] }),
    );
    expect(fuzzed).toContain('fuzz_no_server_error');
    expect(fuzzed).not.toContain('fuzz_read_back');
  });

  it('refuses a name it does not know, in --checks or --exclude-checks, listing the known', async () => {
    await expect(planRun({ baseUrl, excludeChecks: ['no_such_check'] })).rejects.toThrow(
      ConformanceSetupError,
    );
    await expect(planRun({ baseUrl, checks: ['no_such_check'] })).rejects.toThrow(
      /unknown check\(s\): no_such_check; known: .*operation_implemented.*fuzz_read_back/,
    );
  });
});

describe('planRun: the scope of a run', () => {
  it('holds the selected operations and the OPTIONS of their paths, by glob too', async () => {
    const plan = await planRun({ baseUrl, include: ['GET /users/*'] });
    expect(plan.scope.operations.map((op) => `${op.method.toUpperCase()} ${op.path}`)).toEqual([
      'GET /users/{id}',
      'OPTIONS /users/{id}',
    ]);
  });
});
