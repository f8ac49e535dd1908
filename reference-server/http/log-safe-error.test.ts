import { describe, expect, it } from 'vitest';
import { logSafeError } from './log-safe-error.js';

describe('logSafeError', () => {
  it.each([
    [
      Object.assign(new Error("EACCES: permission denied, open '/srv/app/data/db.json'"), {
        code: 'EACCES',
      }),
      "Error [EACCES]: EACCES: permission denied, open '<path>'",
    ],
    [
      new TypeError('x is undefined (file:///srv/app/dist/a.js)'),
      'TypeError: x is undefined (<path>)',
    ],
    [new Error('C:\\srv\\app\\db.json is locked'), 'Error: <path> is locked'],
    [new Error('first line\n    at f (/srv/app/a.js:1:2)'), 'Error: first line'],
    ['a string', 'non-error thrown (string)'],
  ])('%s', (error, expected) => {
    expect(logSafeError(error)).toBe(expected);
  });

  it('is bounded', () => {
    expect(logSafeError(new Error('x'.repeat(10_000))).length).toBe(300);
  });
});
