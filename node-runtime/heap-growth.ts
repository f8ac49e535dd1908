import { setFlagsFromString } from 'node:v8';

/** How far the V8 heap may grow past the live data between two full collections, in percent. */
export const SERVER_HEAP_GROWTH_PERCENT = 35;

const FLAG = '--heap-growing-percent';

/**
 * Bounds how far V8 lets the heap grow past what is live before it collects the old
 * generation again: `apikit serve` keeps its whole store in memory, and with V8's own factor
 * (up to 4x for a heap of this size) the garbage of its flushes piled up to 250 MB of RSS at
 * 100,000 users before a full collection came (decision 0039). Process-wide, so it belongs to
 * the CLI, never to `createServer` (a library in someone else's process). A `--heap-growing-percent`
 * given to node itself wins: it is not set again. Returns whether it was set.
 *
 * @example
 * boundHeapGrowth(); // before the store is read
 */
export function boundHeapGrowth(
  percent: number = SERVER_HEAP_GROWTH_PERCENT,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError('percent must be >= 1');
  if (execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))) return false;
  setFlagsFromString(`${FLAG}=${percent}`);
  return true;
}
