/** A sustained-load run judged by the rules (sustained-rules.ts) and written up. */
import { EXPECTED, MIX, mib, p99Bound, rssBound, type GeneratorResult } from './sustained-rules.js';

/** What the driver measured around one run of the load generator. */
export interface SustainedRun {
  durationS: number;
  connections: number;
  /** Seconds at the start and at the end that are compared. */
  window: number;
  result: GeneratorResult;
  /** The server's RSS, sampled every second. */
  rss: { t: number; bytes: number }[];
  loadStart: number;
  loadEnd: number;
  /** The server's exit code on SIGTERM. */
  exitCode: number | null;
  usersAtStart: number;
  /** The data file after the run. */
  usersAtEnd: { email: string }[];
  fileAtStart: number;
  fileAtEnd: number;
}

export function latency(values: number[]): {
  count: number;
  p50: number;
  p99: number;
  max: number;
} {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value: number | undefined) => Math.round((value ?? 0) * 10) / 10;
  const at = (q: number) => ms(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: ms(sorted.at(-1)) };
}

/** The figures the verdict and the report are made of. */
function figures(run: SustainedRun) {
  const { result, rss, window, durationS } = run;
  const created = result.created.length;
  const grown = run.usersAtEnd.length - run.usersAtStart;
  const inFile = new Set(run.usersAtEnd.map((user) => user.email));
  const lost = result.created.filter((email) => !inFile.has(email));
  const first = latency(result.perSecond.slice(0, window).flat());
  const last = latency(result.perSecond.slice(-window).flat());
  const rssMax = (from: number, to: number) =>
    Math.max(...rss.filter((s) => s.t >= from && s.t <= to).map((s) => s.bytes));
  const rssStart = rssMax(0.5, window);
  const rssEnd = rssMax(durationS - window, durationS + 1);
  const total = result.perSecond.reduce((n, second) => n + second.length, 0);
  const rssLimit = rssBound(rssStart, run.fileAtEnd - run.fileAtStart);
  return { created, grown, lost, first, last, rssStart, rssEnd, total, rssLimit };
}

/** Every rule the run broke, said in a line each. */
function failuresOf(run: SustainedRun, f: ReturnType<typeof figures>): string[] {
  const { result, connections, exitCode } = run;
  const unexpected = Object.entries(result.statuses).flatMap(([kind, byStatus]) =>
    Object.entries(byStatus)
      .filter(
        ([status]) =>
          !((EXPECTED as Record<string, number[]>)[kind] ?? []).includes(Number(status)),
      )
      .map(([status, count]) => `${kind} ${status} x${count}`),
  );
  return [
    ...unexpected.map((u) => `unexpected answer: ${u}`),
    ...Object.entries(result.errors).map(([e, n]) => `connection error x${n}: ${e}`),
    ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
    ...(f.lost.length > 0 ? [`${f.lost.length} acknowledged creates missing from the file`] : []),
    // Creates still in flight when the load stopped may be in the file, unanswered.
    ...(f.grown < f.created || f.grown > f.created + connections
      ? [`${f.created} creates acknowledged, but the file grew by ${f.grown} users`]
      : []),
    ...(exitCode !== 0 ? [`the server exited ${exitCode} on SIGTERM`] : []),
    ...(f.rssEnd > f.rssLimit ? ['RSS grew beyond its bound'] : []),
    ...(f.last.p99 > p99Bound(f.first.p99) ? ['p99 grew beyond its bound'] : []),
  ];
}

/** The report written to bench/sustained-load.json, and the lines printed. */
export function sustainedReport(run: SustainedRun, out: string) {
  const { result, rss, window, durationS, connections, loadStart, loadEnd } = run;
  const f = figures(run);
  const failures = failuresOf(run, f);
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    durationS,
    connections,
    mix: Object.fromEntries(MIX),
    machineLoad1m: { start: loadStart, end: loadEnd },
    requests: { total: f.total, perSecond: Math.round(f.total / durationS) },
    latencyMs: {
      [`first${window}s`]: f.first,
      [`last${window}s`]: f.last,
      overall: latency(result.perSecond.flat()),
    },
    rssMiB: {
      idle: mib(rss[0]?.bytes ?? 0),
      [`first${window}s`]: mib(f.rssStart),
      [`last${window}s`]: mib(f.rssEnd),
      peak: mib(Math.max(...rss.map((s) => s.bytes))),
      /** [second, MiB] every 5 s: whether it levels off or keeps climbing. */
      timeline: rss.filter((_, i) => i % 5 === 0).map((s) => [Math.round(s.t), mib(s.bytes)]),
    },
    data: {
      fileBytes: { start: run.fileAtStart, end: run.fileAtEnd },
      usersCreated: f.created,
      fileUsersGrowth: f.grown,
      acknowledgedMissing: f.lost.length,
    },
    statuses: result.statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    bounds: {
      rssEndMiB: `<= 1.5 x start + 50 MiB + 4 x file growth = ${mib(f.rssLimit)}`,
      p99EndMs: `<= 3 x start + 50 ms = ${p99Bound(f.first.p99)}`,
      statuses: EXPECTED,
    },
    verdict: failures.length === 0 ? 'pass' : 'fail',
    failures,
  };
  const summary = [
    `sustained load: ${durationS} s, ${connections} connections, ${f.total} requests (${report.requests.perSecond}/s), load ${loadStart.toFixed(1)} -> ${loadEnd.toFixed(1)}`,
    `  p99 first ${window} s ${f.first.p99} ms, last ${window} s ${f.last.p99} ms (bound ${p99Bound(f.first.p99)} ms)`,
    `  RSS idle ${report.rssMiB.idle} MiB, first ${window} s ${mib(f.rssStart)} MiB, last ${window} s ${mib(f.rssEnd)} MiB (bound ${mib(f.rssLimit)} MiB)`,
    `  statuses ${JSON.stringify(result.statuses)}`,
    `  ${f.created} creates acknowledged (${f.lost.length} missing from the file), file grew by ${f.grown} users; written to ${out}`,
    failures.length === 0 ? '  PASS' : `  FAIL:\n    ${failures.join('\n    ')}`,
  ].join('\n');
  return { report, summary, pass: failures.length === 0 };
}

/** Pretty JSON as the repository's formatter writes it, so `npm run check` stays clean. */
export async function formatJson(file: string, value: unknown): Promise<string> {
  const text = JSON.stringify(value, null, 2) + '\n';
  try {
    const prettier = await import('prettier');
    return await prettier.format(text, { ...(await prettier.resolveConfig(file)), parser: 'json' });
  } catch {
    return text; // prettier is a dev dependency: without it, plain JSON
  }
}
