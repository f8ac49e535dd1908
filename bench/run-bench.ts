/**
 * `npm run bench`: every subject on loopback, driven by autocannon from a separate process,
 * each figure a ratio against a baseline measured in the same run (A/B interleaved, min /
 * median / max over the runs), judged against the targets of issue 6. Prints the tables,
 * writes bench/results.json, bench/results.md and bench/write-cost.svg.
 *
 *   npm run bench                  full run (3 runs; several minutes)
 *   npm run bench -- --quick       under a minute; exits 1 when a figure is worse than half its target
 *   npm run bench -- --only get,write --runs 5 --cpu-prof
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runChildJson } from './child-json.js';
import { coldStart } from './cold-start.js';
import { fuzzModeAvailable, timeConformRun, timeFuzzRun, type ConformRun } from './conform-run.js';
import { runLoad, type LoadResult } from './load.js';
import type { MswHandlerCost } from './msw-handler-cost.js';
import {
  renderConsole,
  renderHeader,
  renderMarkdown,
  type BenchResults,
  type InfoRow,
  type MachineInfo,
  type MeasurementRow,
} from './report.js';
import { REPO_ROOT } from './repo-root.js';
import { writeCostSvg } from './write-cost-plot.js';
import {
  benchDataset,
  demoDataset,
  writeJsonServerStore,
  writeReferenceStore,
} from './seed-store.js';
import { killAllNow } from './start-process.js';
import { pairedRatios, spread } from './stats.js';
import { helloCommand, startHelloSubject } from './subjects/hello-subject.js';
import { startJsonServer017, startJsonServerBeta } from './subjects/json-server-subjects.js';
import { prismArgs, startApikitMock, startPrismMock } from './subjects/mock-subjects.js';
import { ADMIN, serveArgs, startReferenceServer } from './subjects/reference-server-subject.js';
import { bearerHeaders, PRODUCTION_ENV, type Subject } from './subjects/subject.js';
import { judge, TARGETS, type JudgedTarget, type Missing } from './targets.js';
import { warmWrites } from './warm-writes.js';

const GROUPS = ['get', 'mock', 'write', 'cold', 'conform', 'msw'] as const;
type Group = (typeof GROUPS)[number];
const QUICK_GROUPS: readonly Group[] = ['get', 'mock', 'write', 'cold'];

interface Settings {
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
  cpuProfileDir?: string;
}

const USAGE = `Usage: npm run bench -- [--quick] [--runs N] [--only ${GROUPS.join(',')}] [--duration S] [--connections C] [--cpu-prof]

  --quick        a short run for CI (about a minute): 1 run, 2 s per read measurement, no 10k
                 store, fewer peers, groups get,mock,write,cold; exits 1 when a ratio (or memory)
                 is worse than half its target
  --runs N       A/B runs per comparison (default 3; quick 1; the POST comparison at 1k
                 users: at least 5 in a full run)
  --only LIST    groups to run (default all; quick: get,mock,write,cold): get (server reads vs
                 Express), mock (MSW vs Prism), write (POST at 1k/10k/100k users vs json-server,
                 memory), cold (cold start), conform (conform wall time, fuzz), msw (in-process
                 MSW handler cost)
  --duration S   seconds per read measurement (default 5; quick 2)
  --connections C  concurrent connections (default 50)
  --cpu-prof     write V8 CPU profiles of the apikit servers to bench/profiles/
`;

function parseSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      only: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
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
  const defaults = quick ? QUICK_GROUPS : GROUPS;
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
    ...(values['cpu-prof'] ? { cpuProfileDir: join(REPO_ROOT, 'bench/profiles') } : {}),
  };
}

/** One request against one subject. */
interface Scenario {
  id: string;
  subject: SubjectKey;
  /** For the table. */
  request: string;
  path: string;
}

type SubjectKey = 'node' | 'express' | 'ref' | 'mock' | 'prism' | 'js017' | 'jsbeta';

const SCENARIOS = {
  nodeHello: { id: 'node-hello', subject: 'node', request: 'GET / (fixed JSON)', path: '/' },
  expressHello: {
    id: 'express-hello',
    subject: 'express',
    request: 'GET / (fixed JSON)',
    path: '/',
  },
  refGetUser: {
    id: 'ref-get-user',
    subject: 'ref',
    request: 'GET /users/1',
    path: '/api/v1/users/1',
  },
  refListUsers: {
    id: 'ref-list-users',
    subject: 'ref',
    request: 'GET /users?page=0&size=20',
    path: '/api/v1/users?page=0&size=20',
  },
  refOrderExpand: {
    id: 'ref-order-expand',
    subject: 'ref',
    request: 'GET /orders/1?expand=user,items',
    path: '/api/v1/orders/1?expand=user,items',
  },
  mockGetUser: {
    id: 'mock-get-user',
    subject: 'mock',
    request: 'GET /users/1',
    path: '/api/v1/users/1',
  },
  prismGetUser: {
    id: 'prism-get-user',
    subject: 'prism',
    request: 'GET /users/1',
    path: '/users/1',
  },
  js017GetUser: {
    id: 'js017-get-user',
    subject: 'js017',
    request: 'GET /users/1',
    path: '/users/1',
  },
  jsbetaGetUser: {
    id: 'jsbeta-get-user',
    subject: 'jsbeta',
    request: 'GET /users/1',
    path: '/users/1',
  },
} as const satisfies Record<string, Scenario>;

/** Two scenarios measured back to back in every run, the order alternating run by run. */
interface Pair {
  id: string;
  group: Group;
  baseline: Scenario;
  subject: Scenario;
  peer?: boolean;
}

const PAIRS: Pair[] = [
  { id: 'get-user', group: 'get', baseline: SCENARIOS.expressHello, subject: SCENARIOS.refGetUser },
  {
    id: 'list-users',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.refListUsers,
  },
  {
    id: 'order-expand',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.refOrderExpand,
  },
  {
    id: 'node-vs-express',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.nodeHello,
    peer: true,
  },
  {
    id: 'mock-vs-prism',
    group: 'mock',
    baseline: SCENARIOS.prismGetUser,
    subject: SCENARIOS.mockGetUser,
  },
  {
    id: 'js017-get',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.js017GetUser,
    peer: true,
  },
  {
    id: 'jsbeta-get',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.jsbetaGetUser,
    peer: true,
  },
];

const SUBJECT_NAMES: Record<SubjectKey, string> = {
  node: 'node:http hello',
  express: 'Express 5 hello',
  ref: 'apikit serve',
  mock: 'apikit mock (MSW)',
  prism: 'prism mock',
  js017: 'json-server 0.17',
  jsbeta: 'json-server 1.0-beta',
};

type WriteKey = 'ref' | 'js017' | 'jsbeta';
const WRITE_BODY = '{"name":"Bench User","email":"bench.{{n}}@example.com","age":30}';
/** Size of the store the read subjects run on. */
const READ_STORE_USERS = 1_000;

const log = (line: string) => process.stderr.write(line + '\n');

async function main(): Promise<number> {
  const settings = parseSettings(process.argv.slice(2));
  const startedAt = new Date();
  const loadStart = os.loadavg()[0] ?? 0;
  const tmp = await mkdtemp(join(os.tmpdir(), 'apikit-bench-'));
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping every subject`);
    killAllNow();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (settings.cpuProfileDir) await mkdir(settings.cpuProfileDir, { recursive: true });
  const moreWriteRuns = Object.entries(settings.groups.has('write') ? settings.writeRunsBySize : {})
    .map(([users, runs]) => `, ${runs} for POST at ${Number(users).toLocaleString('en-US')} users`)
    .join('');
  log(
    `apikit bench (${settings.mode}): ${settings.runs} run(s)${moreWriteRuns}, ${settings.connections} connections, ` +
      `${settings.durationSeconds} s per read measurement; groups ${[...settings.groups].join(', ')}`,
  );
  const revision = gitRevision();
  const bench = new Bench(settings, tmp);
  const phase = async (name: string, run: () => Promise<void>) => {
    const started = performance.now();
    await run();
    log(`-- ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    await phase('stores', () => bench.prepareStores());
    if (settings.groups.has('get') || settings.groups.has('mock'))
      await phase('reads', () => bench.readPhase());
    if (settings.groups.has('write')) await phase('writes', () => bench.writePhase());
    if (settings.groups.has('cold')) await phase('cold starts', () => bench.coldPhase());
    if (settings.groups.has('conform')) await phase('conform', () => bench.conformPhase());
    if (settings.groups.has('msw')) await phase('msw in-process', () => bench.mswPhase());
  } finally {
    await bench.stopAll();
    await rm(tmp, { recursive: true, force: true });
  }
  const results: BenchResults = {
    mode: settings.mode,
    startedAt: startedAt.toISOString(),
    revision,
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    machine: machineInfo(loadStart),
    settings: {
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
      loadGenerator: 'autocannon 8 (separate process)',
      nodeEnv: 'production',
    },
    targets: bench.targets(),
    info: bench.info(),
    measurements: bench.measurementRows(),
    errors: bench.errors,
  };
  const outDir = join(REPO_ROOT, 'bench');
  await writeFile(join(outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  await writeFile(join(outDir, 'results.md'), renderMarkdown(results));
  const svg = bench.writeCostSvg();
  if (svg) await writeFile(join(outDir, 'write-cost.svg'), svg);
  process.stdout.write('\n' + renderHeader(results) + '\n\n' + renderConsole(results));
  if (results.errors.length > 0) {
    process.stdout.write(`Errors (${results.errors.length}):\n`);
    for (const error of results.errors) process.stdout.write(`  - ${error}\n`);
  }
  const met = results.targets.filter((t) => t.verdict === 'met').length;
  const missed = results.targets.filter((t) => t.verdict === 'missed').length;
  const failedGuards = results.targets.filter((t) => t.guard === 'failed');
  process.stdout.write(
    `\n${met} targets met, ${missed} missed, ${results.targets.length - met - missed} not measured ` +
      `(${results.durationSeconds} s; machine load ${loadStart.toFixed(2)} -> ${results.machine.loadAverageEnd.toFixed(2)}). ` +
      `Wrote bench/results.json, bench/results.md${svg ? ', bench/write-cost.svg' : ''}.\n`,
  );
  if (settings.mode === 'quick') {
    if (failedGuards.length > 0) {
      process.stdout.write(
        `Quick bench FAILED: worse than half the target: ${failedGuards.map((t) => t.id).join(', ')}\n`,
      );
      return 1;
    }
    process.stdout.write('Quick bench passed: every figure within half its target.\n');
  }
  return 0;
}

class Bench {
  readonly errors: string[] = [];
  /** Every load result by scenario id (read scenarios) or `${subject}@${users}` (writes). */
  private readonly loads = new Map<string, LoadResult[]>();
  /** Per pair, per run: the two results (undefined where a measurement failed). */
  private readonly pairRuns = new Map<string, { baseline?: LoadResult; subject?: LoadResult }[]>();
  private readonly writeRuns = new Map<string, (LoadResult | undefined)[]>();
  private readonly memory100k: { afterStartMb?: number; rssMb: number; peakMb: number }[] = [];
  private readonly subjects = new Map<SubjectKey, Subject>();
  private readonly coldMs = { ref: [] as number[], node: [] as number[], prism: [] as number[] };
  private readonly conformRuns: ConformRun[] = [];
  private readonly fuzzRuns: ConformRun[] = [];
  private fuzzMissing: Missing | undefined;
  private msw: MswHandlerCost | undefined;
  private readonly stores = new Map<number, { ref: string; json: string }>();
  private copies = 0;

  constructor(
    private readonly settings: Settings,
    private readonly tmp: string,
  ) {}

  private fail(what: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    const message = `${what}: ${text.replace(/\s+/g, ' ').trim()}`.slice(0, 400);
    this.errors.push(message);
    log(`  ! ${message}`);
  }

  /** The store files every phase copies from: demo, the read store, each write size. */
  async prepareStores(): Promise<void> {
    const sizes = new Set<number>([0]);
    if (this.settings.groups.has('get')) sizes.add(READ_STORE_USERS);
    if (this.settings.groups.has('write')) for (const s of this.settings.writeSizes) sizes.add(s);
    const demo = await demoDataset();
    for (const users of [...sizes].sort((a, b) => a - b)) {
      const started = performance.now();
      const dataset = benchDataset(demo, users);
      const ref = join(this.tmp, `seed-ref-${users}.json`);
      const json = join(this.tmp, `seed-json-server-${users}.json`);
      await writeReferenceStore(ref, dataset);
      await writeJsonServerStore(json, dataset);
      this.stores.set(users, { ref, json });
      log(
        `store with ${Object.keys(dataset.users).length} users written (${Math.round(performance.now() - started)} ms)`,
      );
    }
  }

  /** A fresh copy of a seed store in a folder of its own (json-server wants its cwd there). */
  private async freshCopy(users: number, kind: 'ref' | 'json'): Promise<string> {
    const seed = this.stores.get(users);
    if (!seed) throw new Error(`no seed store of ${users} users`);
    const dir = join(this.tmp, `work-${++this.copies}`);
    await mkdir(dir);
    const file = join(dir, 'db.json');
    await copyFile(kind === 'ref' ? seed.ref : seed.json, file);
    return file;
  }

  private async startSubject(key: SubjectKey): Promise<Subject> {
    switch (key) {
      case 'node':
      case 'express':
        return startHelloSubject(key);
      case 'ref':
        return startReferenceServer({
          dbFile: await this.freshCopy(READ_STORE_USERS, 'ref'),
          ...(this.settings.cpuProfileDir ? { cpuProfileDir: this.settings.cpuProfileDir } : {}),
        });
      case 'mock':
        return startApikitMock(this.settings.cpuProfileDir);
      case 'prism':
        return startPrismMock();
      case 'js017':
        return startJsonServer017(await this.freshCopy(READ_STORE_USERS, 'json'));
      case 'jsbeta':
        return startJsonServerBeta(await this.freshCopy(READ_STORE_USERS, 'json'));
    }
  }

  private readonly warmed = new Set<string>();

  /**
   * One measurement of `scenario`; the first one of each scenario starts with a discarded warmup
   * (JIT, caches) in the same load process.
   */
  private async measureScenario(scenario: Scenario): Promise<LoadResult | undefined> {
    const subject = this.subjects.get(scenario.subject);
    if (!subject) return undefined;
    const warmup = this.warmed.has(scenario.id) ? 0 : this.settings.warmupSeconds;
    this.warmed.add(scenario.id);
    try {
      const result = await runLoad({
        url: subject.url + scenario.path,
        headers: subject.headers,
        connections: this.settings.connections,
        durationSeconds: this.settings.durationSeconds,
        maxSeconds: this.settings.durationSeconds + 10,
        ...(warmup > 0 ? { warmupSeconds: warmup } : {}),
      });
      const list = this.loads.get(scenario.id) ?? [];
      list.push(result);
      this.loads.set(scenario.id, list);
      return result;
    } catch (error) {
      this.fail(`${SUBJECT_NAMES[scenario.subject]} ${scenario.request}`, error);
      return undefined;
    }
  }

  /** Reads against Express and node:http (and the json-server peers); the mock against Prism. */
  async readPhase(): Promise<void> {
    const pairs = PAIRS.filter(
      (p) => this.settings.groups.has(p.group) && (!p.peer || this.settings.allPeers),
    );
    const keys = new Set<SubjectKey>(pairs.flatMap((p) => [p.baseline.subject, p.subject.subject]));
    log(`starting ${[...keys].map((k) => SUBJECT_NAMES[k]).join(', ')}`);
    const started = await Promise.allSettled(
      [...keys].map(async (key) => [key, await this.startSubject(key)] as const),
    );
    started.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        this.subjects.set(outcome.value[0], outcome.value[1]);
        log(
          `  ${outcome.value[1].name} ready in ${Math.round(outcome.value[1].process.startMs)} ms`,
        );
      } else this.fail(`starting ${SUBJECT_NAMES[[...keys][i] as SubjectKey]}`, outcome.reason);
    });
    for (let run = 0; run < this.settings.runs; run++) {
      await this.refreshTokens();
      const shared = new Map<string, LoadResult | undefined>();
      // Each run starts with another pair, so no pair always follows the logins and the warmups.
      const rotated = [...pairs.slice(run % pairs.length), ...pairs.slice(0, run % pairs.length)];
      for (const pair of rotated) {
        let baseline: LoadResult | undefined;
        let subject: LoadResult | undefined;
        if (this.settings.sharedBaselines) {
          if (!shared.has(pair.baseline.id))
            shared.set(pair.baseline.id, await this.measureScenario(pair.baseline));
          baseline = shared.get(pair.baseline.id);
          subject = await this.measureScenario(pair.subject);
        } else if (run % 2 === 0) {
          baseline = await this.measureScenario(pair.baseline);
          subject = await this.measureScenario(pair.subject);
        } else {
          subject = await this.measureScenario(pair.subject);
          baseline = await this.measureScenario(pair.baseline);
        }
        const runs = this.pairRuns.get(pair.id) ?? [];
        runs.push({ ...(baseline ? { baseline } : {}), ...(subject ? { subject } : {}) });
        this.pairRuns.set(pair.id, runs);
        log(
          `[run ${run + 1}/${this.settings.runs}] ${pair.subject.request} ${SUBJECT_NAMES[pair.subject.subject]} ` +
            `${fmt(subject?.okPerSecond)}/s p99 ${fmt(subject?.latencyMs.p99)} ms vs ${SUBJECT_NAMES[pair.baseline.subject]} ` +
            `${fmt(baseline?.okPerSecond)}/s p99 ${fmt(baseline?.latencyMs.p99)} ms` +
            `${subject && subject.non2xx + subject.errors > 0 ? ` (subject: ${subject.non2xx} non-2xx, ${subject.errors} errors ${JSON.stringify(subject.statusCodes)})` : ''}`,
        );
      }
    }
    for (const [key, subject] of this.subjects) {
      await subject.stop();
      this.subjects.delete(key);
    }
  }

  /** Tokens live 15 minutes: a fresh login per run keeps a long bench from turning into 401s. */
  private async refreshTokens(): Promise<void> {
    for (const key of ['ref', 'mock'] as const) {
      const subject = this.subjects.get(key);
      if (!subject) continue;
      try {
        subject.headers = await bearerHeaders(
          `${subject.url}/api/v1`,
          ADMIN.username,
          ADMIN.password,
        );
      } catch (error) {
        this.fail(`logging in at ${subject.name}`, error);
      }
    }
  }

  /** POST /users with durable acknowledgement on fresh stores of each size, vs json-server. */
  async writePhase(): Promise<void> {
    const runsAt = (users: number) => this.settings.writeRunsBySize[users] ?? this.settings.runs;
    const most = Math.max(...this.settings.writeSizes.map(runsAt));
    for (let run = 0; run < most; run++) {
      for (const users of this.settings.writeSizes) {
        if (run >= runsAt(users)) continue;
        const keys: WriteKey[] = ['ref'];
        if (users <= 10_000 || this.settings.allPeers) keys.push('js017');
        if (this.settings.allPeers) keys.push('jsbeta');
        if (run % 2 === 1) keys.reverse();
        for (const key of keys) {
          const result = await this.measureWrite(key, users);
          const id = `${key}@${users}`;
          const list = this.writeRuns.get(id) ?? [];
          list.push(result);
          this.writeRuns.set(id, list);
          log(
            `[run ${run + 1}/${runsAt(users)}] POST /users at ${users.toLocaleString('en-US')} users: ` +
              `${SUBJECT_NAMES[key]} ${fmt(result?.okPerSecond)} writes/s, p99 ${fmt(result?.latencyMs.p99)} ms` +
              `${result && result.non2xx + result.errors > 0 ? ` (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
          );
        }
      }
    }
  }

  private async measureWrite(key: WriteKey, users: number): Promise<LoadResult | undefined> {
    let subject: Subject | undefined;
    try {
      const file = await this.freshCopy(users, key === 'ref' ? 'ref' : 'json');
      subject =
        key === 'ref'
          ? await startReferenceServer({
              dbFile: file,
              ...(this.settings.cpuProfileDir
                ? { cpuProfileDir: this.settings.cpuProfileDir }
                : {}),
            })
          : key === 'js017'
            ? await startJsonServer017(file)
            : await startJsonServerBeta(file);
      const afterStart = subject.process.memory();
      const amount = this.settings.writeAmounts[users] ?? 500;
      const createUrl = subject.url + (key === 'ref' ? '/api/v1/users' : '/users');
      // Warm, at the store's own size: records created and deleted again (decision 0038).
      // Not at 100k, where a flush takes long enough that JIT warmth is not what counts.
      const warm = users < 100_000;
      if (warm) {
        const warmup = await warmWrites({
          createUrl,
          headers: subject.headers,
          body: WRITE_BODY,
          connections: this.settings.connections,
          pairs: this.settings.writeWarmPairs,
          maxSeconds: this.settings.warmupSeconds,
        });
        log(
          `write warmup at ${users.toLocaleString('en-US')} users (${key}): ${warmup.pairs} create/delete pairs in ${warmup.seconds.toFixed(1)} s`,
        );
      }
      const result = await runLoad({
        url: createUrl,
        method: 'POST',
        headers: { ...subject.headers, 'Content-Type': 'application/json' },
        body: WRITE_BODY,
        connections: this.settings.connections,
        amount,
        // No warmup at 100k: a flush there takes seconds, and a warmup cut off by its time
        // limit would leave its writes queued in front of the measured ones.
        ...(warm ? { warmupAmount: Math.min(100, Math.ceil(amount / 10)) } : {}),
        maxSeconds: this.settings.writeMaxSeconds,
      });
      if (key === 'ref' && users === 100_000) {
        const after = subject.process.memory();
        if (after)
          this.memory100k.push({
            ...(afterStart ? { afterStartMb: afterStart.rssMb } : {}),
            rssMb: after.rssMb,
            peakMb: after.peakRssMb,
          });
      }
      const list = this.loads.get(`${key}@${users}`) ?? [];
      list.push(result);
      this.loads.set(`${key}@${users}`, list);
      return result;
    } catch (error) {
      this.fail(`${SUBJECT_NAMES[key]} POST /users at ${users} users`, error);
      return undefined;
    } finally {
      await subject?.stop();
    }
  }

  /** Spawn to first 200: apikit serve on the demo store, with node:http's own start beside it. */
  async coldPhase(): Promise<void> {
    const demo = this.stores.get(0)?.ref;
    if (!demo) return;
    const dbFile = await this.freshCopy(0, 'ref');
    for (let i = 0; i < this.settings.coldStarts; i++) {
      const order: ('ref' | 'node')[] = i % 2 === 0 ? ['node', 'ref'] : ['ref', 'node'];
      for (const key of order) {
        try {
          const ms = await coldStart((port) => ({
            name: key === 'ref' ? 'apikit serve (cold start)' : 'node:http hello (cold start)',
            command: process.execPath,
            args: key === 'ref' ? serveArgs(port, dbFile) : helloCommand('node', port),
            env: PRODUCTION_ENV,
            port,
            readyPath: key === 'ref' ? '/healthz' : '/',
            readyStatus: 200,
          }));
          this.coldMs[key].push(ms);
        } catch (error) {
          this.fail(`cold start of ${key === 'ref' ? 'apikit serve' : 'node:http'}`, error);
        }
      }
    }
    log(
      `cold start: apikit serve ${this.coldMs.ref.map((m) => Math.round(m)).join(', ')} ms; ` +
        `node:http ${this.coldMs.node.map((m) => Math.round(m)).join(', ')} ms`,
    );
    for (let i = 0; i < this.settings.prismColdStarts; i++) {
      try {
        this.coldMs.prism.push(
          await coldStart((port) => ({
            name: 'prism mock (cold start)',
            command: process.execPath,
            args: prismArgs(port),
            env: PRODUCTION_ENV,
            port,
            readyPath: '/users/1',
            readyHeaders: { Authorization: 'Bearer bench' },
            readyStatus: 200,
          })),
        );
      } catch (error) {
        this.fail('cold start of prism mock', error);
      }
    }
    if (this.coldMs.prism.length > 0)
      log(`cold start: prism mock ${this.coldMs.prism.map((m) => Math.round(m)).join(', ')} ms`);
  }

  /** Full default conform runs against a local server on the demo store; fuzz when it exists. */
  async conformPhase(): Promise<void> {
    let server: Subject | undefined;
    try {
      server = await startReferenceServer({ dbFile: await this.freshCopy(0, 'ref') });
      for (let i = 0; i < this.settings.conformRuns; i++) {
        const run = await timeConformRun(
          `${server.url}/api/v1`,
          join(this.tmp, `conform-${i}.json`),
        );
        this.conformRuns.push(run);
        log(
          `conform run ${i + 1}/${this.settings.conformRuns}: ${(run.wallMs / 1000).toFixed(2)} s wall, ` +
            `${run.requests ?? '?'} requests, ${run.failed ?? '?'} failed (exit ${run.exitCode})`,
        );
      }
      if (this.settings.fuzzCases === 0) {
        this.fuzzMissing = { kind: 'skipped', reason: 'not run in --quick (an absolute rate)' };
      } else if (await fuzzModeAvailable()) {
        for (let i = 0; i < this.settings.fuzzRuns; i++) {
          try {
            const run = await timeFuzzRun(
              `${server.url}/api/v1`,
              this.settings.fuzzCases,
              join(this.tmp, `fuzz-${i}.json`),
            );
            this.fuzzRuns.push(run);
            log(
              `fuzz run ${i + 1}/${this.settings.fuzzRuns}: ${run.fuzz?.requests ?? '?'} fuzz requests in ` +
                `${run.fuzz?.durationMs ?? '?'} ms (${run.requests ?? '?'} in ${run.runnerMs ?? '?'} ms ` +
                `with logins and cleanup; exit ${run.exitCode})`,
            );
          } catch (error) {
            this.fuzzMissing = { kind: 'error', reason: `fuzz run failed: ${String(error)}` };
          }
        }
      } else {
        this.fuzzMissing = { kind: 'skipped', reason: 'not measured (fuzz mode not available)' };
      }
    } catch (error) {
      this.fail('conform run', error);
    } finally {
      await server?.stop();
    }
  }

  /** µs per request through the MSW handlers in-process (no socket), in a child process. */
  async mswPhase(): Promise<void> {
    try {
      this.msw = await runChildJson<MswHandlerCost>(
        fileURLToPath(new URL('./msw-handler-cost.js', import.meta.url)),
        [String(this.settings.mswRequests)],
        180_000,
      );
      log(
        `MSW in-process: ${this.msw.usSequential.toFixed(0)} µs/request one at a time, ` +
          `${this.msw.usConcurrent.toFixed(0)} µs amortised with 50 in flight ` +
          `(${this.msw.usConcurrentWithoutValidation.toFixed(0)} µs without response validation)`,
      );
    } catch (error) {
      this.fail('MSW in-process handler cost', error);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.subjects.values()].map((s) => s.stop()));
    this.subjects.clear();
  }

  private ratios(pairId: string, figure: (r: LoadResult) => number): number[] {
    const runs = this.pairRuns.get(pairId) ?? [];
    return pairedRatios(
      runs.map((r) => (r.subject ? figure(r.subject) : undefined)),
      runs.map((r) => (r.baseline ? figure(r.baseline) : undefined)),
    );
  }

  /** Why a pair has no figure: its group was not selected, or something failed. */
  private missing(group: Group, what: string): Missing {
    return this.settings.groups.has(group)
      ? { kind: 'error', reason: `not measured (${what} failed; see errors)` }
      : {
          kind: 'skipped',
          reason:
            this.settings.mode === 'quick'
              ? 'not in --quick (absolute, not guarded)'
              : `not run (--only ${[...this.settings.groups].join(',')})`,
        };
  }

  private subjectTrouble(pairId: string): string | undefined {
    const bad = (this.pairRuns.get(pairId) ?? []).reduce(
      (sum, r) => sum + (r.subject ? r.subject.non2xx + r.subject.errors : 0),
      0,
    );
    return bad > 0 ? `${bad} non-2xx/errors from the subject` : undefined;
  }

  targets(): JudgedTarget[] {
    const ok = (r: LoadResult) => r.okPerSecond;
    const p99 = (r: LoadResult) => r.latencyMs.p99;
    const pairTarget = (
      target: (typeof TARGETS)[keyof typeof TARGETS],
      pairId: string,
      group: Group,
      figure = ok,
    ) =>
      judge(
        target,
        spread(this.ratios(pairId, figure)),
        this.missing(group, pairId),
        this.subjectTrouble(pairId),
      );
    const write = (key: WriteKey, users: number) =>
      (this.writeRuns.get(`${key}@${users}`) ?? []).map((r) => r?.okPerSecond);
    const writeTrouble = (users: number) => {
      const bad = (this.writeRuns.get(`ref@${users}`) ?? []).reduce(
        (s, r) => s + (r ? r.non2xx + r.errors : 0),
        0,
      );
      return bad > 0 ? `${bad} non-2xx/errors from apikit serve` : undefined;
    };
    const has100k = this.settings.writeSizes.includes(100_000);
    const conformNote = this.conformRuns.some((r) => r.exitCode !== 0)
      ? `exit codes ${this.conformRuns.map((r) => r.exitCode).join(', ')}; failed checks ${this.conformRuns.map((r) => r.failed ?? '?').join(', ')}`
      : undefined;
    const fuzzRates = this.fuzzRuns.flatMap((r) =>
      r.fuzz ? [(r.fuzz.requests / r.fuzz.durationMs) * 1000] : [],
    );
    const fuzzMissing: Missing =
      this.fuzzMissing ??
      (this.fuzzRuns.length > 0
        ? { kind: 'error', reason: 'fuzz runs gave no fuzz summary' }
        : this.missing('conform', 'conform'));
    // A rate from runs that found something, or from fewer runs than asked, is said so.
    const fuzzNote =
      [
        this.fuzzRuns.some((r) => r.exitCode !== 0)
          ? `exit codes ${this.fuzzRuns.map((r) => r.exitCode).join(', ')}`
          : '',
        fuzzRates.length > 0 && this.fuzzMissing ? this.fuzzMissing.reason : '',
      ]
        .filter(Boolean)
        .join('; ') || undefined;
    return [
      pairTarget(TARGETS.getUserThroughput, 'get-user', 'get'),
      pairTarget(TARGETS.getUserP99, 'get-user', 'get', p99),
      pairTarget(TARGETS.listUsers, 'list-users', 'get'),
      pairTarget(TARGETS.orderExpand, 'order-expand', 'get'),
      judge(
        TARGETS.post1k,
        spread(pairedRatios(write('ref', 1_000), write('js017', 1_000))),
        this.missing('write', 'a write measurement'),
        writeTrouble(1_000),
      ),
      judge(
        TARGETS.post100k,
        spread(write('ref', 100_000).filter((v): v is number => v !== undefined)),
        has100k
          ? this.missing('write', 'the 100k write measurement')
          : { kind: 'skipped', reason: 'not run' },
        writeTrouble(100_000),
      ),
      pairTarget(TARGETS.mockVsPrism, 'mock-vs-prism', 'mock'),
      judge(TARGETS.coldStart, spread(this.coldMs.ref), this.missing('cold', 'cold start')),
      judge(
        TARGETS.conformWall,
        spread(this.conformRuns.map((r) => r.wallMs / 1000)),
        this.missing('conform', 'conform'),
        conformNote,
      ),
      judge(TARGETS.fuzzThroughput, spread(fuzzRates), fuzzMissing, fuzzNote),
      judge(
        TARGETS.memory100k,
        spread(this.memory100k.map((m) => m.peakMb)),
        has100k
          ? this.missing('write', 'the 100k write measurement')
          : { kind: 'skipped', reason: 'not run' },
      ),
    ];
  }

  info(): InfoRow[] {
    const rows: InfoRow[] = [];
    const add = (id: string, title: string, unit: string, values: number[], note?: string) => {
      const value = spread(values);
      if (value) rows.push({ id, title, unit, value, ...(note ? { note } : {}) });
    };
    const ok = (r: LoadResult) => r.okPerSecond;
    add(
      'express-hello',
      'Express 5 hello throughput (the baseline)',
      '2xx/s',
      (this.loads.get('express-hello') ?? []).map(ok),
    );
    add(
      'node-vs-express',
      'node:http hello ÷ Express 5 hello (framework cost)',
      'x',
      this.ratios('node-vs-express', ok),
    );
    add(
      'js017-get',
      'json-server 0.17 GET /users/1 ÷ Express 5 hello',
      'x',
      this.ratios('js017-get', ok),
    );
    add(
      'jsbeta-get',
      'json-server 1.0-beta GET /users/1 ÷ Express 5 hello',
      'x',
      this.ratios('jsbeta-get', ok),
    );
    add(
      'prism-get',
      'prism mock GET /users/1 throughput',
      '2xx/s',
      (this.loads.get('prism-get-user') ?? []).map(ok),
    );
    const writes = (key: WriteKey, users: number) =>
      (this.writeRuns.get(`${key}@${users}`) ?? []).map((r) => r?.okPerSecond);
    for (const users of this.settings.writeSizes) {
      for (const key of ['ref', 'js017', 'jsbeta'] as const) {
        const values = writes(key, users).filter((v): v is number => v !== undefined);
        add(
          `write-${key}-${users}`,
          `POST /users at ${users.toLocaleString('en-US')} users: ${SUBJECT_NAMES[key]}`,
          'writes/s',
          values,
        );
      }
      add(
        `write-ref-vs-beta-${users}`,
        `POST /users at ${users.toLocaleString('en-US')} users: apikit serve ÷ json-server 1.0-beta`,
        'x',
        pairedRatios(writes('ref', users), writes('jsbeta', users)),
      );
    }
    add(
      'rss-100k-start',
      'RSS of apikit serve at 100,000 users, after start',
      'MB',
      this.memory100k.flatMap((m) => (m.afterStartMb === undefined ? [] : [m.afterStartMb])),
    );
    add(
      'rss-100k-after',
      'RSS of apikit serve at 100,000 users, after the write bench',
      'MB',
      this.memory100k.map((m) => m.rssMb),
    );
    add('cold-node', 'Cold start of node:http hello (spawn to first 200)', 'ms', this.coldMs.node);
    add(
      'cold-vs-node',
      'Cold start of apikit serve ÷ cold start of node:http hello (paired)',
      'x',
      pairedRatios(this.coldMs.ref, this.coldMs.node),
    );
    add('cold-prism', 'Cold start of prism mock (spawn to first 200)', 'ms', this.coldMs.prism);
    add(
      'conform-requests',
      'conform run: requests',
      'requests',
      this.conformRuns.flatMap((r) => (r.requests === undefined ? [] : [r.requests])),
    );
    add(
      'conform-rate',
      'conform run: requests per second of runner time',
      'req/s',
      this.conformRuns.flatMap(runnerRate),
    );
    add(
      'fuzz-run-rate',
      'fuzz run: all requests ÷ runner duration (logins, fixtures and cleanup included)',
      'req/s',
      this.fuzzRuns.flatMap(runnerRate),
    );
    if (this.msw) {
      const m = this.msw;
      add(
        'msw-us-sequential',
        'MSW handlers in-process, GET /users/{id}, one at a time (latency)',
        'µs/request',
        [m.usSequential],
      );
      add(
        'msw-us-concurrent',
        'MSW handlers in-process, GET /users/{id}, 50 in flight (amortised cost)',
        'µs/request',
        [m.usConcurrent],
      );
      add(
        'msw-us-novalidation',
        'MSW handlers in-process, 50 in flight, response validation off',
        'µs/request',
        [m.usConcurrentWithoutValidation],
      );
    }
    return rows;
  }

  measurementRows(): MeasurementRow[] {
    const rows: MeasurementRow[] = [];
    for (const scenario of Object.values(SCENARIOS)) {
      const runs = this.loads.get(scenario.id);
      if (runs?.length)
        rows.push({
          id: scenario.id,
          subject: SUBJECT_NAMES[scenario.subject],
          request: scenario.request,
          runs,
        });
    }
    for (const users of this.settings.writeSizes) {
      for (const key of ['ref', 'js017', 'jsbeta'] as const) {
        const runs = this.loads.get(`${key}@${users}`);
        if (runs?.length)
          rows.push({
            id: `${key}@${users}`,
            subject: SUBJECT_NAMES[key],
            request: `POST /users at ${users.toLocaleString('en-US')} users`,
            runs,
          });
      }
    }
    return rows;
  }

  /** The write-cost plot of this run's POST measurements. */
  writeCostSvg(): string | undefined {
    return writeCostSvg(this.measurementRows(), {
      connections: this.settings.connections,
      maxSeconds: this.settings.writeMaxSeconds,
    });
  }
}

function fmt(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}

/** The commit under test, `+dirty` when the working tree differs (others may be editing). */
function gitRevision(): string {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 10_000 }).trim();
    const head = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--untracked-files=no']) ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

function machineInfo(loadStart: number): MachineInfo {
  return {
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryTotalMb: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverageStart: loadStart,
    loadAverageEnd: os.loadavg()[0] ?? 0,
  };
}

process.once('exit', killAllNow);
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllNow();
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);

/** A conform run's requests per second of the runner's own duration ([] when unknown). */
function runnerRate(run: ConformRun): number[] {
  return run.requests && run.runnerMs ? [(run.requests / run.runnerMs) * 1000] : [];
}
