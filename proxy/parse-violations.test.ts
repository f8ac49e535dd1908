import { describe, expect, it } from 'vitest';
import { parseViolations } from './parse-violations.js';

describe('parseViolations', () => {
  it('reads each entry of the sl-violations JSON, its location joined', () => {
    const header = JSON.stringify([
      { location: ['response', 'body'], severity: 'Error', message: "must have 'email'" },
      { location: [], severity: 'Warning' },
    ]);
    expect(parseViolations(header)).toEqual([
      { location: 'response.body', severity: 'Error', message: "must have 'email'" },
      { location: 'request', severity: 'Warning', message: 'violation' },
    ]);
  });

  it('finds nothing in no header', () => {
    expect(parseViolations(undefined)).toEqual([]);
    expect(parseViolations('')).toEqual([]);
  });

  it("reports Prism's cut list as one violation of the exchange", () => {
    const [only, ...rest] = parseViolations('Too many violations! [{"location":');
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ location: 'exchange', severity: 'Error' });
    expect(only?.message).toContain('Too many violations!');
  });
});
