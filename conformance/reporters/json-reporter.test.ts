import { describe, expect, it } from 'vitest';
import { renderJsonReport } from './json-reporter.js';
import { trickyReport } from '../../test/support/conformance/tricky-report.js';

describe('renderJsonReport', () => {
  it('is the report itself as pretty JSON', () => {
    const report = trickyReport();
    const text = renderJsonReport(report);
    expect(text).toMatch(/^\{\n {2}"summary": \{/);
    expect(JSON.parse(text)).toEqual(report);
  });
});
