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

  it("reads the whole entries of Prism's cut list", () => {
    const entry = (n: number) =>
      JSON.stringify({
        location: ['request', 'body'],
        severity: 'Error',
        message: `found 'apikit-unknown-${n}'`,
      });
    const header = `Too many violations! [${entry(0)},${entry(1)},{"location":["requ`;
    expect(parseViolations(header)).toEqual([
      { location: 'request.body', severity: 'Error', message: "found 'apikit-unknown-0'" },
      { location: 'request.body', severity: 'Error', message: "found 'apikit-unknown-1'" },
    ]);
  });

  it('reports a cut list with no whole entry as one violation of the exchange', () => {
    const [only, ...rest] = parseViolations('Too many violations! [{"location":');
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ location: 'exchange', severity: 'Error' });
    expect(only?.message).toContain('Too many violations!');
  });
});
