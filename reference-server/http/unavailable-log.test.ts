import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { unavailableLog } from './unavailable-log.js';

describe('unavailableLog', () => {
  it('says why, once per 10 s, counting the 503s each line stands for', () => {
    const lines: Record<string, unknown>[] = [];
    let now = 0;
    const onUnavailable = unavailableLog(
      (line) => lines.push(line),
      () => now,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const error = new StoreUnavailableError('the database is unavailable', 1, { cause: refused });
    onUnavailable(error, 'r1');
    now = 5_000;
    onUnavailable(error, 'r2');
    onUnavailable(error, 'r3');
    now = 10_000;
    onUnavailable(error, 'r4');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'warn', requestId: 'r1', requests: 1 });
    expect(lines[0]?.error).toBe(
      'Error: the database is unavailable: Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(lines[1]).toMatchObject({ requestId: 'r4', requests: 3 });
  });
});
