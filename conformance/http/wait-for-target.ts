import { request } from 'undici';

export interface WaitForTargetOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** Between two tries (default 500 ms). */
  intervalMs?: number;
  /** Sent with each try (API keys a gateway may want before it answers at all). */
  headers?: Record<string, string>;
  /** Told what is going on: once when the waiting starts, every 10 s, and when it ends. */
  onWaiting?: (line: string) => void;
}

/** How often a long wait says it is still waiting. */
const REPORT_EVERY_MS = 10_000;

/**
 * Waits until the target answers HTTP at `url` (any status: a 401 or 404 means the service
 * is up), for "start the service, then conform" in one CI step. Rejects with a message naming
 * the last error when it never does.
 *
 * @example
 * await waitForTarget('http://127.0.0.1:3000/api/v1', { timeoutMs: 30_000 });
 */
export async function waitForTarget(url: string, options: WaitForTargetOptions): Promise<void> {
  const started = Date.now();
  const interval = options.intervalMs ?? 500;
  let lastError = '';
  let reported = started;
  let tries = 0;
  for (;;) {
    tries++;
    const left = options.timeoutMs - (Date.now() - started);
    try {
      const res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...options.headers },
        headersTimeout: Math.max(100, Math.min(left, 5000)),
        bodyTimeout: Math.max(100, Math.min(left, 5000)),
      });
      await res.body.dump();
      if (tries > 1)
        options.onWaiting?.(
          `${url} answered ${res.statusCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      return;
    } catch (error) {
      lastError = (error as { code?: string }).code ?? (error as Error).message;
    }
    const elapsed = Date.now() - started;
    if (tries === 1)
      options.onWaiting?.(
        `waiting up to ${Math.round(options.timeoutMs / 1000)} s for ${url} to answer (${lastError})`,
      );
    else if (Date.now() - reported >= REPORT_EVERY_MS) {
      reported = Date.now();
      options.onWaiting?.(
        `still waiting for ${url}: ${Math.round(elapsed / 1000)} s (${lastError})`,
      );
    }
    if (elapsed + interval > options.timeoutMs)
      throw new Error(
        `the target did not answer within ${Math.round(options.timeoutMs / 1000)} s (--wait-for-target): ${url}: ${lastError}`,
      );
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
