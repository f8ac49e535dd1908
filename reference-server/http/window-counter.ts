/** One counted request: the key's hits in its current window, and how long that window lasts. */
export interface WindowHit {
  hits: number;
  /** Milliseconds until the key's window ends (and its count starts again). */
  resetInMs: number;
}

/**
 * Counts requests per key in fixed windows: a key's window opens at its first hit and lasts
 * `windowMs`. In this process's memory by default; shared by every instance when the store is
 * PostgreSQL (decision 0086), which answers asynchronously.
 */
export interface WindowCounter {
  hit(key: string): WindowHit | Promise<WindowHit>;
}

interface Window {
  hits: number;
  resetAtMs: number;
}

/**
 * The in-memory counter: synchronous, two generations of keys swapped every window, so a key
 * idle for a whole window is forgotten without a sweep.
 *
 * @example
 * const counter = memoryWindowCounter(60_000);
 * counter.hit('1.2.3.4'); // { hits: 1, resetInMs: 60000 }
 */
export function memoryWindowCounter(windowMs: number): WindowCounter {
  let current = new Map<string, Window>();
  let previous = new Map<string, Window>();
  setInterval(() => {
    previous = current;
    current = new Map();
  }, windowMs).unref();
  return {
    hit(key) {
      const now = Date.now();
      let window = current.get(key);
      if (window === undefined) {
        window = previous.get(key) ?? { hits: 0, resetAtMs: now + windowMs };
        previous.delete(key);
        current.set(key, window);
      }
      if (window.resetAtMs <= now) {
        window.hits = 0;
        window.resetAtMs = now + windowMs;
      }
      window.hits += 1;
      return { hits: window.hits, resetInMs: window.resetAtMs - now };
    },
  };
}
