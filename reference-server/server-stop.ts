import type { Server } from 'node:http';
import { drainServer } from '../node-runtime/drain-server.js';

/** How long `/readyz` waits for the store to answer before calling it unreachable. */
export const READINESS_PING_MS = 1_000;

/** How long in-flight requests may take once the reference server stops listening. */
const DRAIN_TIMEOUT_MS = 10_000;

/** The stop of a reference server in its two steps, and the readiness that follows it. */
export interface ServerStop {
  /** Resolves when the store answers (PostgreSQL); undefined: always there. Set once opened. */
  ping: (() => Promise<void>) | undefined;
  /** For createApp: the drain (503 to new requests), the stop begun, `/readyz`'s reason. */
  app: {
    isDraining: () => boolean;
    isStopping: () => boolean;
    readiness: () => Promise<string | undefined>;
  };
  /** The first step: `/readyz` 503 and `Connection: close`, requests still served. */
  stopReadiness(): void;
  /** The second: stop listening, drain in-flight requests, then `closeStore`. Once. */
  close(server: Server, closeStore: () => Promise<void>): Promise<void>;
}

/**
 * The stop state of one reference server (decision 0111): ready, then stopping (the drain
 * delay `apikit serve` keeps on SIGTERM), then draining.
 *
 * @example
 * const stop = serverStop();
 * createApp({ api, rateLimits, ...stop.app });
 */
export function serverStop(): ServerStop {
  let stopping = false;
  let draining = false;
  let closing: Promise<void> | undefined;
  const stop: ServerStop = {
    ping: undefined,
    app: {
      isDraining: () => draining,
      isStopping: () => stopping || draining,
      readiness: async () => {
        if (stopping) return 'the server is stopping (drain delay)';
        const ping = stop.ping;
        return ping && !(await answersWithin(ping, READINESS_PING_MS))
          ? 'the store cannot be reached'
          : undefined;
      },
    },
    stopReadiness() {
      stopping = true;
    },
    close(server, closeStore) {
      closing ??= (async () => {
        draining = true;
        await drainServer(server, DRAIN_TIMEOUT_MS);
        await closeStore();
      })();
      return closing;
    },
  };
  return stop;
}

/** Whether `probe` resolves within `ms` (a rejection or a slower answer: false). */
async function answersWithin(probe: () => Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      probe().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
