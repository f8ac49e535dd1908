/**
 * `npm run mutation -- --seed N --count N [--only n] [--json FILE] [--max-seconds S] [--quiet]`,
 * `npm run mutation -- --from FILE...` (outcomes of earlier `--json` runs, judged again): runs `count` seeded
 * mutations (or only the n-th of the seed), prints each as it is judged, then the mutation
 * score (killed / applied), the counts per operator, and the survivors the reviewed table does
 * not classify; exits 1 when there is one. Bundled and started by scripts/mutation-score.mjs.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { classify } from './classify.js';
import { startMutationHarness, type MutationOutcome } from './mutation-harness.js';
import { summarize, type MutationSummary } from './mutation-summary.js';

export async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seed = Number(arg('seed') ?? process.env.MUTATION_SEED ?? dailySeed());
  const count = Number(arg('count') ?? 100);
  const only = arg('only') === undefined ? undefined : Number(arg('only'));
  const quiet = argv.includes('--quiet');
  // A time budget (CI): no new mutation starts after it; the report covers those judged.
  const maxMs = arg('max-seconds') === undefined ? Infinity : Number(arg('max-seconds')) * 1000;
  const from = arg('from');
  if (from !== undefined) return resummarize(argv.slice(argv.indexOf('--from') + 1));
  const file = arg('json');
  if (file) await writeFile(file, '');
  console.log(
    `mutation: seed ${seed}, count ${count} (repeat: npm run mutation -- --seed ${seed} --count ${count})`,
  );
  const harness = await startMutationHarness();
  const outcomes: MutationOutcome[] = [];
  const started = Date.now();
  try {
    let n = 0;
    for await (const mutation of harness.mutations(seed, only === undefined ? count : only + 1)) {
      if (only !== undefined && n++ < only) continue;
      if (Date.now() - started > maxMs) {
        console.log(`time budget of ${maxMs / 1000} s spent: stopping after ${outcomes.length}`);
        break;
      }
      const outcome = await harness.run(mutation);
      outcomes.push(outcome);
      if (file) await appendFile(file, `${JSON.stringify(outcome)}\n`);
      const cls = outcome.verdict === 'survived' ? classify(mutation) : undefined;
      const tag = cls
        ? ` [${cls.verdict}]`
        : outcome.verdict === 'survived'
          ? ' [UNCLASSIFIED]'
          : '';
      if (!quiet || (outcome.verdict === 'survived' && !cls))
        console.log(
          `${mutation.id} ${outcome.verdict}${tag} ${mutation.operator} ${mutation.operationId}#${mutation.index} ${mutation.method} ${mutation.status} ${mutation.label}` +
            `${outcome.failedChecks.length ? ` <- ${outcome.failedChecks.join(',')}` : ''} (${outcome.stage}, ${outcome.ms} ms)`,
        );
    }
  } finally {
    await harness.close();
  }
  const summary = summarize(outcomes);
  print(seed, summary, Date.now() - started);
  return summary.unclassified.length > 0 ? 1 : 0;
}

/** `--from a.jsonl b.jsonl`: the outcomes of earlier runs (`--json`), judged by today's table. */
async function resummarize(files: string[]): Promise<number> {
  const all: MutationOutcome[] = [];
  for (const f of files.filter((x) => !x.startsWith('--'))) {
    const outcomes = (await readFile(f, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as MutationOutcome);
    all.push(...outcomes);
    const seed = Number(outcomes[0]?.mutation.id.split(':')[0]);
    console.log(`\n${f}: ${outcomes.length} mutations`);
    print(seed, summarize(outcomes), 0);
  }
  const total = summarize(all);
  console.log(
    `\nALL ${all.length} mutations: ${total.killed}/${total.applied} killed = ${total.score}`,
  );
  console.log('per operator (applied / killed / survived / not applied):');
  for (const [name, c] of Object.entries(total.byOperator))
    console.log(
      `  ${name.padEnd(20)} ${c.applied} / ${c.killed} / ${c.survived} / ${c.notApplied}`,
    );
  // Which table entries the survivors fell into: the blind spots by weight.
  const byClass = new Map<string, number>();
  for (const o of all) {
    if (o.verdict !== 'survived' && o.verdict !== 'timeout') continue;
    const c = classify(o.mutation);
    const key = c ? `${c.verdict} ${(c.clause ?? c.note ?? '').slice(0, 90)}` : 'UNCLASSIFIED';
    byClass.set(key, (byClass.get(key) ?? 0) + 1);
  }
  console.log('survivors by table entry:');
  for (const [k, n] of [...byClass].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(4)} ${k}`);
  return total.unclassified.length > 0 ? 1 : 0;
}

/** The seed of the day (UTC): the same all day, another tomorrow. */
function dailySeed(): number {
  return Number(new Date().toISOString().slice(0, 10).replace(/-/g, ''));
}

function print(seed: number, s: MutationSummary, ms: number): void {
  console.log(
    `\nmutation score (seed ${seed}): ${s.killed}/${s.applied} killed = ${s.score}` +
      ` (${s.survived} survived: ${s.allowed} allowed, ${s.blindSpots} blind spots, ${s.unclassified.length} unclassified;` +
      ` ${s.notApplied} not applied, ${s.timeouts} timed out; ${(ms / 1000).toFixed(0)} s)`,
  );
  console.log('per operator (applied / killed / survived / not applied):');
  for (const [name, c] of Object.entries(s.byOperator))
    console.log(
      `  ${name.padEnd(20)} ${c.applied} / ${c.killed} / ${c.survived} / ${c.notApplied}`,
    );
  if (s.blindSpotList.length) {
    console.log('blind spots hit (classified):');
    for (const line of s.blindSpotList) console.log(`  ${line}`);
  }
  if (s.unclassified.length) {
    console.log('UNCLASSIFIED survivors (add them to test/mutation/survivor-classes.ts):');
    for (const o of s.unclassified)
      console.log(
        `  ${o.mutation.id} ${o.mutation.operator} ${o.mutation.operationId}#${o.mutation.index} ${o.mutation.method} ${o.mutation.status} [${o.mutation.check}] ${o.mutation.label} key=${o.mutation.key}`,
      );
  }
}
