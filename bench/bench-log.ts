/** Progress lines go to stderr; stdout carries the tables. */
export const log = (line: string) => process.stderr.write(line + '\n');

/** A figure for a progress line: whole numbers from 100 up, one decimal below, `–` for none. */
export function fmt(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}
