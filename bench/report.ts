import type { LoadResult } from './load-spec.js';
import { median, spread, type Spread } from './stats.js';
import type { JudgedTarget } from './targets.js';

/** A figure reported without a target (baselines, peers, costs). */
export interface InfoRow {
  id: string;
  title: string;
  unit: string;
  value?: Spread;
  note?: string;
}

/** Every run of one load measurement (one subject, one request). */
export interface MeasurementRow {
  id: string;
  subject: string;
  request: string;
  runs: LoadResult[];
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryTotalMb: number;
  node: string;
  platform: string;
  /** 1-minute load average at the start and the end: how busy the shared machine was. */
  loadAverageStart: number;
  loadAverageEnd: number;
}

/** What `bench/results.json` holds. */
export interface BenchResults {
  mode: 'full' | 'quick';
  startedAt: string;
  /** The commit measured (`git describe`-like), `+dirty` when the working tree had changes. */
  revision: string;
  durationSeconds: number;
  machine: MachineInfo;
  settings: Record<string, unknown>;
  targets: JudgedTarget[];
  info: InfoRow[];
  measurements: MeasurementRow[];
  /** Failures of the harness or of a subject (a measurement that could not be made). */
  errors: string[];
}

/** A figure without its unit: 2 decimals for ratios and seconds, then by magnitude. */
export function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  if (unit === 'x' || unit === 's') return value.toFixed(2);
  if (abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** A figure with its unit: `0.72x`, `1,234 req/s`, `180 ms`. */
export function formatValue(value: number, unit: string): string {
  const text = formatNumber(value, unit);
  if (unit === 'x') return `${text}x`;
  return unit ? `${text} ${unit}` : text;
}

/** `0.72x (0.65–0.80)`: the median, then min–max when there was more than one run. */
export function formatSpread(value: Spread | undefined, unit: string): string {
  if (!value) return '–';
  const median = formatValue(value.median, unit);
  if (value.n < 2) return median;
  return `${median} (${formatNumber(value.min, unit)}–${formatNumber(value.max, unit)})`;
}

/** A note fit for one table cell: one line, bounded. */
function noteText(note: string | undefined): string {
  if (!note) return '';
  const line = note.replace(/\s+/g, ' ').trim();
  return ` [${line.length > 140 ? line.slice(0, 139) + '…' : line}]`;
}

function targetText(t: JudgedTarget): string {
  return `${t.direction === 'at-least' ? '>=' : '<'} ${formatValue(t.threshold, t.unit)}`;
}

const VERDICT_TEXT = { met: 'met', missed: 'MISSED', 'not measured': 'not measured' } as const;
const GUARD_TEXT = {
  ok: 'ok',
  failed: 'FAILED',
  skipped: 'skipped',
  unguarded: 'not guarded',
} as const;

/** The rows of the three tables, as cells. */
function tables(results: BenchResults): { title: string; head: string[]; rows: string[][] }[] {
  const quick = results.mode === 'quick';
  const targetHead = ['Target', 'Measured: median (min–max)', 'Target', 'Result'];
  if (quick) targetHead.push('Quick guard (half target)');
  const targetRows = results.targets.map((t) => {
    const row = [
      t.title,
      formatSpread(t.value, t.unit) + noteText(t.note),
      targetText(t),
      VERDICT_TEXT[t.verdict],
    ];
    // The one unguarded ratio is unguarded for its disk, not for being absolute.
    if (quick)
      row.push(
        t.guard === 'unguarded'
          ? `not guarded (${t.unit === 'x' ? 'disk-bound' : 'absolute'})`
          : GUARD_TEXT[t.guard],
      );
    return row;
  });
  const infoRows = results.info.map((i) => [
    i.title,
    formatSpread(i.value, i.unit) + noteText(i.note),
  ]);
  const loadRows = results.measurements.map((m) => {
    // Latency is recorded for 2xx answers only: a run without one has none.
    const answered = m.runs.filter((r) => r.ok > 0);
    const latency = (pick: (r: LoadResult) => number) =>
      answered.length ? formatValue(median(answered.map(pick)), 'ms') : '–';
    const bad = m.runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    return [
      m.subject,
      m.request,
      formatSpread(spread(m.runs.map((r) => r.okPerSecond)), ''),
      latency((r) => r.latencyMs.p50),
      latency((r) => r.latencyMs.p99),
      String(bad),
    ];
  });
  return [
    { title: 'Targets', head: targetHead, rows: targetRows },
    { title: 'Other figures', head: ['Figure', 'Measured: median (min–max)'], rows: infoRows },
    {
      title: 'Load measurements (every run)',
      head: ['Subject', 'Request', '2xx/s: median (min–max)', 'p50', 'p99', 'non-2xx + errors'],
      rows: loadRows,
    },
  ];
}

/** One line naming what was measured where: mode, date, revision, machine and its load. */
export function renderHeader(results: BenchResults): string {
  const m = results.machine;
  return (
    `apikit bench (${results.mode}) ${results.startedAt} at ${results.revision}: ` +
    `${m.cpus} cores (${m.cpuModel}), ${m.memoryTotalMb.toLocaleString('en-US')} MB, Node ${m.node}, ` +
    `load average ${m.loadAverageStart.toFixed(2)} -> ${m.loadAverageEnd.toFixed(2)}, ${results.durationSeconds} s`
  );
}

/** The tables as aligned plain text, for the console. */
export function renderConsole(results: BenchResults): string {
  const out: string[] = [];
  for (const table of tables(results)) {
    if (table.rows.length === 0) continue;
    const widths = table.head.map((h, i) =>
      Math.max(h.length, ...table.rows.map((row) => (row[i] ?? '').length)),
    );
    const line = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd();
    out.push(table.title, line(table.head), line(widths.map((w) => '-'.repeat(w))));
    for (const row of table.rows) out.push(line(row));
    out.push('');
  }
  return out.join('\n');
}

/** The same tables in Markdown, for docs/performance.md. */
export function renderMarkdown(results: BenchResults): string {
  const out: string[] = [renderHeader(results), ''];
  const cell = (c: string) => c.replace(/\|/g, '\\|');
  for (const table of tables(results)) {
    if (table.rows.length === 0) continue;
    out.push(`**${table.title}**`, '');
    out.push(`| ${table.head.map(cell).join(' | ')} |`);
    out.push(`| ${table.head.map(() => '---').join(' | ')} |`);
    for (const row of table.rows) out.push(`| ${row.map(cell).join(' | ')} |`);
    out.push('');
  }
  return out.join('\n');
}
