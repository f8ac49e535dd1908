import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../report.js';
import { TRICKY_TEXT, trickyReport } from '../../test/support/conformance/tricky-report.js';
import { renderConsoleSummary } from './console-reporter.js';
import { renderHtmlReport } from './html-reporter.js';
import { renderJsonReport } from './json-reporter.js';
import { renderJunitReport } from './junit-reporter.js';

/** The tricky report with what operation_implemented found and a scorecard. */
function probedReport(): ConformanceReport {
  const report = trickyReport();
  report.summary.implemented = { operations: 1, of: 2, missing: ['getOrder'] };
  report.scorecard = [
    {
      operationId: 'listUsers',
      method: 'GET',
      path: '/users',
      implemented: true,
      passed: 3,
      failed: 2,
      skipped: 1,
      breaks: [
        { check: 'not_a_server_error', failures: 2, rules: ['http.500.never'] },
        { check: TRICKY_TEXT, failures: 1, rules: [] },
      ],
    },
    {
      operationId: 'getOrder',
      method: 'GET',
      path: '/orders/{id}',
      implemented: false,
      passed: 0,
      failed: 1,
      skipped: 4,
      breaks: [{ check: 'operation_implemented', failures: 1, rules: [] }],
    },
  ];
  return report;
}

describe('the reporters carry what operation_implemented found and the scorecard', () => {
  it('console: a line "implemented N of M" naming the missing, and a row per operation', () => {
    const text = renderConsoleSummary(probedReport());
    expect(text).toContain('implemented 1 of 2 operations; not implemented (1): getOrder');
    const card = text.slice(text.indexOf('Scorecard'));
    expect(card).toMatch(
      /listUsers GET \/users +3 +2 +1 {2}not_a_server_error ×2 \(http\.500\.never\)/,
    );
    expect(card).toMatch(/getOrder GET \/orders\/\{id\} +not implemented/);
    expect(card).not.toContain('\u001b[31mred');
  });

  it('console: no such line, nor a scorecard, for a report without them', () => {
    const text = renderConsoleSummary(trickyReport());
    expect(text).not.toContain('implemented');
    expect(text).not.toContain('Scorecard');
  });

  it('html: the count in the header and a scorecard table, escaped', () => {
    const html = renderHtmlReport(probedReport());
    expect(html).toContain(
      'Implemented 1 of 2 operations; not implemented (1): <code>getOrder</code>',
    );
    expect(html).toContain('<section id="scorecard">');
    expect(html).toContain('<a href="#scorecard">Scorecard</a>');
    expect(html).toMatch(
      /<code>getOrder<\/code><\/td><td><code>GET \/orders\/\{id\}<\/code><\/td><td colspan="4" class="skipped">not implemented/,
    );
    expect(html).toContain('<code>not_a_server_error</code> ×2 (<code>http.500.never</code>)');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('junit: the count as properties, valid XML', () => {
    const xml = renderJunitReport(probedReport());
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<property name="implemented.operations" value="1"/>');
    expect(xml).toContain('<property name="implemented.of" value="2"/>');
    expect(xml).toContain('<property name="implemented.missing" value="getOrder"/>');
  });

  it('json: the report as it is, scorecard and all', () => {
    const json = JSON.parse(renderJsonReport(probedReport())) as ConformanceReport;
    expect(json.summary.implemented).toEqual({ operations: 1, of: 2, missing: ['getOrder'] });
    expect(json.scorecard?.map((s) => s.operationId)).toEqual(['listUsers', 'getOrder']);
  });
});
