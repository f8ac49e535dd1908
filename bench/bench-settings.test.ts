import { describe, expect, it } from 'vitest';
import { parseSettings, reportedSettings } from './bench-settings.js';

describe('bench settings', () => {
  it('a full run by default: 3 runs, every group, the 10k store, 5 runs of the 1k POST pair', () => {
    const settings = parseSettings([]);
    expect(settings.mode).toBe('full');
    expect(settings.runs).toBe(3);
    expect([...settings.groups]).toEqual(['get', 'mock', 'write', 'cold', 'conform', 'msw']);
    expect(settings.writeSizes).toEqual([1_000, 10_000, 100_000]);
    expect(settings.writeRunsBySize).toEqual({ 1_000: 5 });
    expect(settings.sharedBaselines).toBe(false);
  });

  it('--quick: one run, the guarded groups only, shared baselines, no fuzz', () => {
    const settings = parseSettings(['--quick']);
    expect(settings.mode).toBe('quick');
    expect(settings.runs).toBe(1);
    expect([...settings.groups]).toEqual(['get', 'mock', 'write', 'cold']);
    expect(settings.writeSizes).toEqual([1_000, 100_000]);
    expect(settings.sharedBaselines).toBe(true);
    expect(settings.fuzzCases).toBe(0);
  });

  it('--only and --runs are checked', () => {
    expect([...parseSettings(['--only', 'write, cold']).groups]).toEqual(['write', 'cold']);
    expect(() => parseSettings(['--only', 'reads'])).toThrow(/--only: unknown group "reads"/);
    expect(() => parseSettings(['--runs', '0'])).toThrow('--runs must be 1-10');
    expect(parseSettings(['--runs', '5']).writeRunsBySize).toEqual({});
  });

  it('PostgreSQL only when named: --only postgres, its sizes and pool checked', () => {
    const settings = parseSettings(['--only', 'postgres', '--pg-users', '100000,1000000']);
    expect([...settings.groups]).toEqual(['postgres']);
    expect(settings.postgresUsers).toEqual([100_000, 1_000_000]);
    expect(settings.postgresPool).toBe(10);
    expect(parseSettings([]).postgresUsers).toEqual([100_000]);
    expect(() => parseSettings(['--pg-users', '10'])).toThrow('--pg-users must be');
    expect(() => parseSettings(['--pg-pool', '0'])).toThrow('--pg-pool must be 1-50');
    expect(parseSettings(['--pg-conf', 'jit=off,work_mem=8MB']).postgresConf).toEqual({
      jit: 'off',
      work_mem: '8MB',
    });
    expect(() => parseSettings(['--pg-conf', 'jit'])).toThrow('is not NAME=VALUE');
  });

  it('the report records the settings with the read store size and the groups as a list', () => {
    const reported = reportedSettings(parseSettings(['--quick', '--only', 'cold']));
    expect(reported).toMatchObject({ runs: 1, readStoreUsers: 1_000, groups: ['cold'] });
    expect(reported).not.toHaveProperty('cpuProfileDir');
  });
});
