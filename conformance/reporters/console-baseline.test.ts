import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { applyBaseline } from '../baseline/apply-baseline.js';
import { failureFingerprint } from '../baseline/failure-fingerprint.js';
import { renderConsoleSummary } from './console-reporter.js';
import { renderHtmlReport } from './html-reporter.js';
import { renderJunitReport } from './junit-reporter.js';
import { trickyReport } from '../../test/support/conformance/tricky-report.js';

/**
 * The tricky report judged by a baseline that accepts both failures of not_a_server_error and
 * holds one entry fixed since (response_schema_conformance passed on its operation).
 */
function judgedReport() {
  const report = trickyReport();
  const passed = report.results.find(
    (r) => r.check === 'response_schema_conformance' && r.status === 'passed',
  )!;
  const known = report.results
    .filter((r) => r.check === 'not_a_server_error' && r.status === 'failed')
    .map(failureFingerprint);
  return applyBaseline(report, {
    entries: [...known, { check: passed.check, operationId: passed.operationId, rule: 'UserDto' }],
  });
}

describe('a run judged by a baseline', () => {
  const report = judgedReport();

  it('the console lists the new failures first, then the fixed entries, then the known ones', () => {
    const text = renderConsoleSummary(report);
    const at = (heading: string) => text.indexOf(heading);
    expect(at('New failures (1)')).toBeGreaterThan(0);
    expect(at('New failures (1)')).toBeLessThan(at('Fixed since the baseline (1)'));
    expect(at('Fixed since the baseline (1)')).toBeLessThan(at('Known failures (baseline) (2)'));
    expect(text).not.toMatch(/^Failures \(/m);
    const fresh = text.slice(at('New failures'), at('Fixed since'));
    expect(fresh).toContain('response_schema_conformance (1)');
    expect(fresh).not.toContain('not_a_server_error');
    expect(text).toMatch(/^ {2}✓ response_schema_conformance: \S+: UserDto$/m);
    expect(text).toMatch(/^ {4}~ getUser GET \/users\/\{id\}: the server answered 503$/m);
    expect(text).toContain('1 new failure, 2 known (baseline), 1 fixed since the baseline\n');
  });

  it('the JUnit report skips the known failures, so CI stays green for them', () => {
    const xml = renderJunitReport(report);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      testsuites: Record<string, string>;
    };
    expect(parsed.testsuites).toMatchObject({ '@_failures': '1', '@_skipped': '5' });
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml.match(/<skipped message="known failure \(baseline\): /g)).toHaveLength(2);
    expect(xml).toContain('<property name="baseline.new" value="1"/>');
    expect(xml).toContain('<property name="baseline.fixed" value="1"/>');
  });

  it('the HTML report says the verdict and marks the known failures', () => {
    const html = renderHtmlReport(report);
    expect(html).toContain('1 new failure, 2 known (baseline), 1 fixed since the baseline');
    expect(html.match(/known \(baseline\)<\/span>/g)).toHaveLength(2);
  });

  it('without a baseline nothing changes', () => {
    const text = renderConsoleSummary(trickyReport());
    expect(text).toContain('Failures (3)');
    expect(text).not.toContain('baseline');
  });
});
