import { afterEach, describe, expect, it } from 'vitest';
import { watchesParent, watchStopRequests, type StopRequest } from './stop-requests.js';

const unwatch: (() => void)[] = [];
afterEach(() => unwatch.splice(0).forEach((stop) => stop()));

/** Watches with a parent pid the test controls; resolves the requests seen after `ms`. */
function watch(parent: { pid: number }, options: { watchParent?: boolean } = {}) {
  const seen: StopRequest[] = [];
  unwatch.push(
    watchStopRequests((request) => seen.push(request), {
      watchParent: options.watchParent ?? true,
      pollMs: 5,
      startParentPid: 4870,
      parentPid: () => parent.pid,
    }),
  );
  return seen;
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchStopRequests', () => {
  it('takes the parent going away as SIGTERM, once (decision 0099)', async () => {
    const parent = { pid: 4870 };
    const seen = watch(parent);
    await later(30);
    expect(seen).toEqual([]);
    parent.pid = 1; // handed to init: the npx (its sh) is gone
    await later(30);
    parent.pid = 77;
    await later(30);
    expect(seen).toEqual([{ signal: 'SIGTERM', reason: 'SIGTERM (parent process 4870 exited)' }]);
  });

  it('hands on every SIGINT and SIGTERM; a parent gone after a signal adds nothing', async () => {
    const parent = { pid: 4870 };
    const seen = watch(parent);
    process.emit('SIGINT', 'SIGINT');
    parent.pid = 1; // the same Ctrl-C took the npm chain down
    await later(30);
    process.emit('SIGTERM', 'SIGTERM');
    expect(seen).toEqual([
      { signal: 'SIGINT', reason: 'SIGINT' },
      { signal: 'SIGTERM', reason: 'SIGTERM' },
    ]);
  });

  it('does not watch the parent when told not to', async () => {
    const parent = { pid: 4870 };
    const seen = watch(parent, { watchParent: false });
    parent.pid = 1;
    await later(30);
    expect(seen).toEqual([]);
  });
});

describe('watchesParent', () => {
  it('watches under npm (npx, npm exec, npm run), or when APIKIT_STOP_WITH_PARENT says so', () => {
    expect(watchesParent({ npm_lifecycle_event: 'npx' })).toBe(true);
    expect(watchesParent({})).toBe(false);
    expect(watchesParent({ APIKIT_STOP_WITH_PARENT: '1' })).toBe(true);
    expect(watchesParent({ npm_lifecycle_event: 'npx', APIKIT_STOP_WITH_PARENT: '0' })).toBe(false);
  });
});
