import { logLogPlotSvg, type PlotSeries } from './plot-svg.js';
import type { MeasurementRow } from './report.js';

const SERIES = [
  { key: 'ref', label: 'apikit serve (fsync before the 201, group commit)', color: '#1f77b4' },
  { key: 'js017', label: 'json-server 0.17', color: '#d62728' },
  { key: 'jsbeta', label: 'json-server 1.0-beta', color: '#ff7f0e' },
] as const;

/**
 * The plot of issue 6: milliseconds per acknowledged POST /users (1000 ÷ writes/s, the median
 * over the runs) against the users in the store, one line per subject, from the measurement rows
 * `ref@1000`, `js017@10000`, ... (as bench/results.json holds them). A run that acknowledged no
 * write costs infinitely much; a size whose median is infinite is left out and named.
 *
 * @example
 * const svg = writeCostSvg(results.measurements, { connections: 50, maxSeconds: 20 });
 */
export function writeCostSvg(
  rows: MeasurementRow[],
  options: { connections: number; maxSeconds: number },
): string | undefined {
  const series: PlotSeries[] = [];
  for (const { key, label, color } of SERIES) {
    const unfinished: number[] = [];
    const points: { x: number; y: number }[] = [];
    const mine = rows
      .map((row) => ({ row, match: new RegExp(`^${key}@(\\d+)$`).exec(row.id) }))
      .filter((m) => m.match && m.row.runs.length > 0)
      .map((m) => ({ users: Number(m.match![1]), runs: m.row.runs }))
      .sort((a, b) => a.users - b.users);
    for (const { users, runs } of mine) {
      const costs = runs
        .map((r) => (r.okPerSecond > 0 ? 1000 / r.okPerSecond : Number.POSITIVE_INFINITY))
        .sort((a, b) => a - b);
      const mid = costs.length >> 1;
      const cost =
        costs.length % 2 === 1
          ? (costs[mid] as number)
          : ((costs[mid - 1] as number) + (costs[mid] as number)) / 2;
      if (Number.isFinite(cost)) points.push({ x: users, y: cost });
      else unfinished.push(users);
    }
    if (mine.length === 0) continue;
    const note = unfinished.length
      ? `; at ${unfinished.map((u) => u.toLocaleString('en-US')).join(', ')} users most runs acknowledged no write within ${options.maxSeconds} s`
      : '';
    series.push({ label: label + note, color, points });
  }
  if (series.length === 0) return undefined;
  return logLogPlotSvg({
    title: `POST /users: cost of an acknowledged write as the store grows (${options.connections} connections)`,
    xLabel: 'users in the store',
    yLabel: 'ms per acknowledged write (1000 ÷ writes/s)',
    series,
    width: 720,
    height: 400,
  });
}
