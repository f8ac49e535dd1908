/** `npm run bench`'s command line: the groups, the settings of a full and a quick run. */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchResults } from './report.js';
import { REPO_ROOT } from './repo-root.js';
import { READ_STORE_USERS } from './scenarios.js';

export const GROUPS = ['get', 'mock', 'write', 'cold', 'conform', 'msw', 'postgres'] as const;
export type Group = (typeof GROUPS)[number];
const QUICK_GROUPS: readonly Group[] = ['get', 'mock', 'write', 'cold'];
/** PostgreSQL only when asked for (`--only postgres`): it needs its binaries and a seed (0088). */
const FULL_GROUPS: readonly Group[] = GROUPS.filter((g) => g !== 'postgres');

export interface Settings {
  mode: 'full' | 'quick';
  runs: number;
  connections: number;
  durationSeconds: number;
  /** Once per subject after it starts, not counted. */
  warmupSeconds: number;
  writeSizes: number[];
  /**
   * A/B runs of the write comparison by store size, where they differ from `runs` (decision
   * 0041: the 1k pair's apikit side lasts half a second, so one noisy pair in three moves the
   * median).
   */
  writeRunsBySize: Record<number, number>;
  /** POSTs per write measurement, by store size (bounded so the store stays near its size). */
  writeAmounts: Record<number, number>;
  /**
   * Create-and-delete pairs that warm a write subject up before its measurement, for at most
   * `warmupSeconds` (the store stays at its size: decision 0038); none at 100,000 users.
   */
  writeWarmPairs: number;
  writeMaxSeconds: number;
  /** The json-server peers in the GET table and the beta in the write table. */
  allPeers: boolean;
  /**
   * One baseline measurement per run shared by the pairs that compare against it (quick), instead
   * of a baseline measured right beside each subject (full: tighter pairs, more time).
   */
  sharedBaselines: boolean;
  coldStarts: number;
  prismColdStarts: number;
  conformRuns: number;
  /** Fuzz requests per operation (`conform --fuzz-only --fuzz N`); 0 leaves the fuzz runs out. */
  fuzzCases: number;
  /** Fuzz runs, one after another against the same server as the conform runs. */
  fuzzRuns: number;
  mswRequests: number;
  groups: Set<Group>;
  /** Users in the PostgreSQL subject's database, one seeded database per size (decision 0088). */
  postgresUsers: number[];
  /** `--database-pool` of each PostgreSQL instance. */
  postgresPool: number;
  /** postgresql.conf settings of the throwaway cluster over the test ones (`--pg-conf jit=off`). */
  postgresConf: Record<string, string>;
  cpuProfileDir?: string;
}

const USAGE = `Usage: npm run bench -- [--quick] [--runs N] [--only ${GROUPS.join(',')}] [--duration S] [--connections C] [--pg-users LIST] [--pg-pool N] [--pg-conf K=V,...] [--cpu-prof]

  --quick        a short run for CI (about a minute): 1 run, 2 s per read measurement, no 10k
                 store, fewer peers, groups get,mock,write,cold; exits 1 when a ratio (or memory)
                 is worse than half its target
  --runs N       A/B runs per comparison (default 3; quick 1; the POST comparison at 1k
                 users: at least 5 in a full run)
  --only LIST    groups to run (default all; quick: get,mock,write,cold): get (server reads vs
                 Express), mock (MSW vs Prism), write (POST at 1k/10k/100k users vs json-server,
                 memory), cold (cold start), conform (conform wall time, fuzz), msw (in-process
                 MSW handler cost), postgres (apikit serve on PostgreSQL, 1 and 3 instances, vs
                 the JSON file; only when named)
  --duration S   seconds per read measurement (default 5; quick 2)
  --connections C  concurrent connections (default 50)
  --pg-users LIST  users in the PostgreSQL database, one run per size (default 100000;
                 e.g. 100000,1000000)
  --pg-pool N    --database-pool of each PostgreSQL instance (default 10)
  --pg-conf LIST settings of the throwaway cluster, e.g. jit=off (default: the tests' own)
  --cpu-prof     write V8 CPU profiles of the apikit servers to bench/profiles/
`;

export function parseSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      only: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'pg-users': { type: 'string' },
      'pg-pool': { type: 'string' },
      'pg-conf': { type: 'string' },
      'cpu-prof': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const int = (
    text: string | undefined,
    fallback: number,
    min: number,
    max: number,
    name: string,
  ) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be ${min}-${max}`);
    return n;
  };
  const groups = new Set<Group>();
  // Quick leaves out what it would only print, never judge: conform's wall time and the MSW
  // in-process cost (absolute figures, see decision 0024).
  const defaults = quick ? QUICK_GROUPS : FULL_GROUPS;
  for (const name of (values.only ?? defaults.join(',')).split(',').map((s) => s.trim())) {
    if (!(GROUPS as readonly string[]).includes(name))
      throw new Error(`--only: unknown group "${name}" (${GROUPS.join(', ')})`);
    groups.add(name as Group);
  }
  const runs = int(values.runs, quick ? 1 : 3, 1, 10, 'runs');
  return {
    mode: quick ? 'quick' : 'full',
    runs,
    connections: int(values.connections, 50, 1, 1000, 'connections'),
    durationSeconds: int(values.duration, quick ? 2 : 5, 1, 60, 'duration'),
    warmupSeconds: quick ? 1 : 2,
    writeSizes: quick ? [1_000, 100_000] : [1_000, 10_000, 100_000],
    writeRunsBySize: quick || runs >= 5 ? {} : { 1_000: 5 },
    // Quick: one round of the connections at 100k (a flush there takes seconds).
    writeAmounts: quick
      ? { 1_000: 400, 100_000: 50 }
      : { 1_000: 1_000, 10_000: 1_000, 100_000: 1_000 },
    writeWarmPairs: quick ? 500 : 1_000,
    writeMaxSeconds: quick ? 15 : 20,
    allPeers: !quick,
    sharedBaselines: quick,
    coldStarts: quick ? 3 : 7,
    prismColdStarts: quick ? 0 : 2,
    conformRuns: quick ? 1 : 3,
    fuzzCases: quick ? 0 : 100,
    fuzzRuns: quick ? 0 : 3,
    mswRequests: quick ? 200 : 5_000,
    groups,
    postgresUsers: (values['pg-users'] ?? '100000')
      .split(',')
      .map((s) => int(s.trim(), 0, 1_000, 2_000_000, 'pg-users')),
    postgresPool: int(values['pg-pool'], 10, 1, 50, 'pg-pool'),
    postgresConf: parseConf(values['pg-conf']),
    ...(values['cpu-prof'] ? { cpuProfileDir: join(REPO_ROOT, 'bench/profiles') } : {}),
  };
}

/** `jit=off,work_mem=8MB` as settings; a name is a word, a value has no comma or space. */
function parseConf(text: string | undefined): Record<string, string> {
  const conf: Record<string, string> = {};
  for (const item of (text ?? '').split(',').filter(Boolean)) {
    const match = /^([a-z_.]+)=([^\s,]+)$/.exec(item.trim());
    if (!match) throw new Error(`--pg-conf: "${item}" is not NAME=VALUE`);
    conf[match[1] as string] = match[2] as string;
  }
  return conf;
}

/** The settings as the report records them. */
export function reportedSettings(settings: Settings): BenchResults['settings'] {
  return {
    runs: settings.runs,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    readStoreUsers: READ_STORE_USERS,
    writeSizes: settings.writeSizes,
    writeRunsBySize: settings.writeRunsBySize,
    writeAmounts: settings.writeAmounts,
    writeWarmPairs: settings.writeWarmPairs,
    writeMaxSeconds: settings.writeMaxSeconds,
    coldStarts: settings.coldStarts,
    conformRuns: settings.conformRuns,
    fuzzCases: settings.fuzzCases,
    fuzzRuns: settings.fuzzRuns,
    groups: [...settings.groups],
    ...(settings.groups.has('postgres')
      ? {
          postgresUsers: settings.postgresUsers,
          postgresPool: settings.postgresPool,
          postgresConf: settings.postgresConf,
        }
      : {}),
    loadGenerator: 'autocannon 8 (separate process)',
    nodeEnv: 'production',
  };
}
