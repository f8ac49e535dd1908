/**
 * One bench run's state: its settings, the seed stores, the subjects running, and every figure
 * the phases (read-phase.ts, write-phase.ts, cold-phase.ts, conform-phase.ts, msw-phase.ts)
 * collect for the report (judged-targets.ts, info-rows.ts, measurement-rows.ts).
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from './bench-log.js';
import type { Group, Settings } from './bench-settings.js';
import type { ConformRun } from './conform-run.js';
import type { LoadResult } from './load.js';
import type { MswHandlerCost } from './msw-handler-cost.js';
import { emptyPgFigures, type PgFigures } from './postgres/pg-figures.js';
import { READ_STORE_USERS, type SubjectKey, type WriteKey } from './scenarios.js';
import {
  benchDataset,
  demoDataset,
  writeJsonServerStore,
  writeReferenceStore,
} from './seed-store.js';
import { startHelloSubject } from './subjects/hello-subject.js';
import { startJsonServer017, startJsonServerBeta } from './subjects/json-server-subjects.js';
import { startApikitMock, startPrismMock } from './subjects/mock-subjects.js';
import { startReferenceServer } from './subjects/reference-server-subject.js';
import { pairedRatios } from './stats.js';
import type { Subject } from './subjects/subject.js';
import type { Missing } from './targets.js';

export class BenchRun {
  readonly errors: string[] = [];
  /** Every load result by scenario id (read scenarios) or `${subject}@${users}` (writes). */
  readonly loads = new Map<string, LoadResult[]>();
  /** Per pair, per run: the two results (undefined where a measurement failed). */
  readonly pairRuns = new Map<string, { baseline?: LoadResult; subject?: LoadResult }[]>();
  readonly writeRuns = new Map<string, (LoadResult | undefined)[]>();
  readonly memory100k: { afterStartMb?: number; rssMb: number; peakMb: number }[] = [];
  readonly subjects = new Map<SubjectKey, Subject>();
  readonly coldMs = { ref: [] as number[], node: [] as number[], prism: [] as number[] };
  readonly conformRuns: ConformRun[] = [];
  readonly fuzzRuns: ConformRun[] = [];
  fuzzMissing: Missing | undefined;
  msw: MswHandlerCost | undefined;
  /** The PostgreSQL phase's figures (bench/postgres/, decision 0088). */
  readonly postgres: PgFigures = emptyPgFigures();
  /** Scenarios measured once already (their warmup is done). */
  readonly warmed = new Set<string>();
  private readonly stores = new Map<number, { ref: string; json: string }>();
  private copies = 0;

  constructor(
    readonly settings: Settings,
    readonly tmp: string,
  ) {}

  fail(what: string, error: unknown): void {
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

  /** Whether the seed store of `users` users was written. */
  hasStore(users: number): boolean {
    return this.stores.has(users);
  }

  /** A fresh copy of a seed store in a folder of its own (json-server wants its cwd there). */
  async freshCopy(users: number, kind: 'ref' | 'json'): Promise<string> {
    const seed = this.stores.get(users);
    if (!seed) throw new Error(`no seed store of ${users} users`);
    const dir = join(this.tmp, `work-${++this.copies}`);
    await mkdir(dir);
    const file = join(dir, 'db.json');
    await copyFile(kind === 'ref' ? seed.ref : seed.json, file);
    return file;
  }

  /** `cpuProfileDir` for an apikit subject when `--cpu-prof` asked for profiles. */
  profileOption(): { cpuProfileDir?: string } {
    return this.settings.cpuProfileDir ? { cpuProfileDir: this.settings.cpuProfileDir } : {};
  }

  async startSubject(key: SubjectKey): Promise<Subject> {
    switch (key) {
      case 'node':
      case 'express':
        return startHelloSubject(key);
      case 'ref':
        return startReferenceServer({
          dbFile: await this.freshCopy(READ_STORE_USERS, 'ref'),
          ...this.profileOption(),
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

  async stopAll(): Promise<void> {
    await Promise.all([...this.subjects.values()].map((s) => s.stop()));
    this.subjects.clear();
  }

  /** A pair's subject ÷ baseline ratios, run by run, of one figure. */
  ratios(pairId: string, figure: (r: LoadResult) => number): number[] {
    const runs = this.pairRuns.get(pairId) ?? [];
    return pairedRatios(
      runs.map((r) => (r.subject ? figure(r.subject) : undefined)),
      runs.map((r) => (r.baseline ? figure(r.baseline) : undefined)),
    );
  }

  /** Why a pair has no figure: its group was not selected, or something failed. */
  missing(group: Group, what: string): Missing {
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

  subjectTrouble(pairId: string): string | undefined {
    const bad = (this.pairRuns.get(pairId) ?? []).reduce(
      (sum, r) => sum + (r.subject ? r.subject.non2xx + r.subject.errors : 0),
      0,
    );
    return bad > 0 ? `${bad} non-2xx/errors from the subject` : undefined;
  }

  /** The POST throughputs of one subject at one store size, run by run. */
  writes(key: WriteKey, users: number): (number | undefined)[] {
    return (this.writeRuns.get(`${key}@${users}`) ?? []).map((r) => r?.okPerSecond);
  }
}
