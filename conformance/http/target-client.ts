import { Pool, type Dispatcher } from 'undici';
import type { RecordedRequest } from '../report.js';
import { credentialOf, RateLimitPacer, type PolicyBudget } from './rate-limit-pacer.js';
import type { TargetClientOptions } from './target-client-options.js';
import { ResponseHeaders } from './response-headers.js';
import {
  TargetUnreachableError,
  WaitInterruptedError,
  type Exchange,
  type PlannedRequest,
} from './exchange.js';

export {
  TargetUnreachableError,
  WaitInterruptedError,
  type Exchange,
  type PlannedRequest,
} from './exchange.js';

export type { TargetClientOptions } from './target-client-options.js';

const MAX_RETRY_AFTER_S = 30;

/** Told of one answer: the request as planned, and whether `send` returns it (no retry). */
export type ExchangeListener = (
  exchange: Exchange,
  planned: PlannedRequest,
  final: boolean,
) => void;

/**
 * Parallel requests of a run unless told otherwise (decision 0030): most of a run waits on the
 * target's durable writes, which a server commits in groups, and 8 connections stay polite.
 */
export const DEFAULT_CONCURRENCY = 8;

/**
 * Sends the runner's requests to the target with undici: a keep-alive pool, a timeout per
 * request, an optional rate cap, and 429s honoured by waiting out Retry-After (bounded).
 * HTTP error statuses are results, not exceptions; only an unreachable target throws.
 */
export class TargetClient {
  readonly origin: string;
  readonly basePath: string;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly spacingMs: number;
  private nextSlot = 0;
  private readonly pacer: RateLimitPacer | undefined;
  private interrupted = false;
  private readonly wakers = new Set<() => void>();
  /** Headers the user asked to send on every request. */
  readonly extraHeaders: Record<string, string>;
  count = 0;
  private readonly listeners = new Set<ExchangeListener>();

  constructor(private readonly options: TargetClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.spacingMs = options.rateLimit ? 1000 / options.rateLimit : 0;
    this.extraHeaders = options.headers ?? {};
    this.pacer =
      options.pace === false
        ? undefined
        : new RateLimitPacer({
            ...(options.onPace ? { onPace: options.onPace } : {}),
            ...(options.onPolicy ? { onPolicy: options.onPolicy } : {}),
            sleep: (ms) => this.wait(ms),
          });
    this.pool = new Pool(this.origin, {
      connections: options.concurrency ?? DEFAULT_CONCURRENCY,
      keepAliveTimeout: 10_000,
      pipelining: 1,
    });
  }

  /** The absolute URL of a path below the base, as a report shows it. */
  url(path: string): string {
    return this.origin + this.basePath + path;
  }

  /**
   * Cuts every wait for a window or a Retry-After short, now and until `resumeWaits`: a run
   * that is told to stop must not sit out a minute first. Waiting requests reject with
   * WaitInterruptedError.
   */
  interruptWaits(): void {
    this.interrupted = true;
    for (const wake of this.wakers) wake();
  }

  /** Waits are honoured again (the run's cleanup must not meet 429s either). */
  resumeWaits(): void {
    this.interrupted = false;
  }

  /**
   * Takes in the rate-limit headers of an answer another client got from the same target (the
   * fuzz phase's), so that this client's budgets count those requests too.
   */
  noteRateLimits(exchange: Exchange): void {
    const who = credentialOf(headerValue(exchange.request.headers, 'authorization'));
    this.pacer?.settle(
      { who, route: `${exchange.request.method} ${new URL(exchange.request.url).pathname}` },
      [],
      exchange.headers,
      exchange.response.status,
    );
  }

  /** The rate-limit budgets the target reported so far (empty when it announces none). */
  get rateLimits(): PolicyBudget[] {
    return this.pacer?.known ?? [];
  }

  /**
   * Tells `listener` of every answer from now on, whoever sent the request: a 429 that is
   * waited out and retried too (`final` false), which is an answer of the target like any
   * other. Returns the function that stops telling it.
   */
  listen(listener: ExchangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async send(planned: PlannedRequest): Promise<Exchange> {
    if (!planned.housekeeping) this.options.guard?.(planned);
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.paced(planned);
      const retryAfter = Number(exchange.headers.get('retry-after'));
      const final =
        exchange.response.status !== 429 ||
        attempt >= (this.options.retries429 ?? 3) ||
        !Number.isFinite(retryAfter);
      for (const listener of this.listeners) listener(exchange, planned, final);
      if (final) {
        this.options.onExchange?.(exchange);
        return exchange;
      }
      const seconds = Math.min(Math.max(retryAfter, 0), MAX_RETRY_AFTER_S);
      this.options.onWait?.(seconds, planned);
      await this.wait(seconds * 1000);
    }
  }

  /** One request, held back first while a budget it spends is used up. */
  private async paced(planned: PlannedRequest): Promise<Exchange> {
    if (!this.pacer) return this.sendOnce(planned);
    const request = {
      who: credentialOf(headerValue(planned.headers, 'authorization')),
      route: planned.route ?? `${planned.method} ${planned.path.split('?')[0]}`,
    };
    const booked = await this.pacer.acquire(request);
    let exchange: Exchange | undefined;
    try {
      exchange = await this.sendOnce(planned);
      return exchange;
    } finally {
      this.pacer.settle(request, booked, exchange?.headers, exchange?.response.status);
    }
  }

  private async sendOnce(planned: PlannedRequest): Promise<Exchange> {
    if (this.spacingMs > 0) {
      const now = Date.now();
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + this.spacingMs;
      if (slot > now) await sleep(slot - now);
    }
    const headers = this.headersOf(planned);
    const request: RecordedRequest = {
      method: planned.method,
      url: this.url(planned.path),
      headers,
      ...(planned.body !== undefined ? { body: planned.body } : {}),
    };
    const started = performance.now();
    try {
      const raw = await this.dispatch(planned, headers);
      this.count++;
      const answered = ResponseHeaders.fromRaw(raw.headers);
      return {
        request,
        response: {
          status: raw.status,
          headers: answered.toRecord(),
          body: raw.body,
          durationMs: performance.now() - started,
        },
        headers: answered,
      };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      throw new TargetUnreachableError(`${planned.method} ${request.url} failed: ${code}`, {
        cause: error,
      });
    }
  }

  /**
   * One request through the pool's low-level `dispatch`: the status, the raw header lines and
   * the body as text (UTF-8, a BOM skipped, as undici's `body.text()` reads it), without the
   * stream, the parsed header object and the promise chain `pool.request` builds around every
   * answer, which cost the fuzz phase a sizeable share of its time per request.
   */
  private dispatch(
    planned: PlannedRequest,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: Buffer[]; body: string }> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let rawHeaders: Buffer[] = [];
      const chunks: Buffer[] = [];
      this.pool.dispatch(
        {
          // A base URL without a path and an empty planned path still make a request target.
          path: this.basePath + planned.path || '/',
          method: planned.method as 'GET',
          headers,
          ...(planned.body !== undefined ? { body: planned.body } : {}),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        {
          onConnect: () => undefined,
          onHeaders: (statusCode: number, headers: Buffer[]) => {
            status = statusCode;
            rawHeaders = headers;
            return true;
          },
          onData: (chunk: Buffer) => {
            chunks.push(chunk);
            return true;
          },
          onComplete: () => resolve({ status, headers: rawHeaders, body: decode(chunks) }),
          onError: reject,
        } satisfies Dispatcher.DispatchHandler,
      );
    });
  }

  /** Sleeps `ms`, unless the waits are interrupted (then rejects at once). */
  private wait(ms: number): Promise<void> {
    if (this.interrupted) return Promise.reject(new WaitInterruptedError('the run is stopping'));
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        reject(new WaitInterruptedError('the run is stopping'));
      };
      const timer = setTimeout(() => {
        this.wakers.delete(wake);
        resolve();
      }, ms);
      this.wakers.add(wake);
    });
  }

  /** The request's headers over the ones sent on every request (same name: the request's). */
  private headersOf(planned: PlannedRequest): Record<string, string> {
    const own = planned.headers ?? {};
    const names = new Set(Object.keys(own).map((n) => n.toLowerCase()));
    const extra = Object.entries(this.extraHeaders).filter(([n]) => !names.has(n.toLowerCase()));
    return extra.length === 0 ? own : { ...Object.fromEntries(extra), ...own };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function headerValue(headers: Record<string, string> | undefined, name: string) {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** A body as UTF-8 text, a leading byte order mark skipped. */
function decode(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  return buffer.toString('utf8', bom ? 3 : 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
