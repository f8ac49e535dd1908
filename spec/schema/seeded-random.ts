/** A reproducible source of randomness: the same seed gives the same run, in every runtime. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A new independent stream derived from this one and a label (stable per label). */
  fork(label: string): SeededRandom;
}

/**
 * mulberry32: small, fast, good enough for demo and test data, which must be identical on every
 * run and in every runtime (`Math.random` cannot promise that); never for secrets. The one PRNG
 * of the project: the demo data set, the conformance cases and `Prefer: dynamic=true` all use it.
 *
 * @example
 * const random = seededRandom(42);
 * random.int(1, 6); // the same number on every run with seed 42
 */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('pick() needs a non-empty list');
      return item;
    },
    fork: (label) => {
      let h = seed ^ 0x9e3779b9;
      for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 2654435761);
      return seededRandom(h >>> 0);
    },
  };
}
