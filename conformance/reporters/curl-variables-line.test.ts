import { describe, expect, it } from 'vitest';
import { trickyReport } from '../../test/support/conformance/tricky-report.js';
import type { ConformanceReport } from '../report.js';
import { renderConsoleSummary } from './console-reporter.js';
import { curlVariablesLine } from './curl-variables-line.js';
import { renderHtmlReport } from './html-reporter.js';
import { renderJsonReport } from './json-reporter.js';

/** The tricky report, its failures' curl lines using the two token variables. */
function withVariables(): ConformanceReport {
  const report = trickyReport();
  report.summary.curlVariables = [
    { name: 'APIKIT_TOKEN', holds: 'an access token of user@example.com' },
    { name: 'APIKIT_ADMIN_TOKEN', holds: 'an access token of admin@example.com' },
  ];
  return report;
}

const LINE =
  'curl lines use $APIKIT_TOKEN and $APIKIT_ADMIN_TOKEN: export APIKIT_TOKEN=<an access token of user@example.com> APIKIT_ADMIN_TOKEN=<an access token of admin@example.com>';

describe('curlVariablesLine', () => {
  it('says once which variables the curl lines use and what to export', () => {
    expect(curlVariablesLine(withVariables().summary)).toBe(LINE);
    expect(curlVariablesLine(trickyReport().summary)).toBeUndefined();
  });

  it('heads the failures of the console and HTML reports; JSON carries the variables', () => {
    const text = renderConsoleSummary(withVariables());
    expect(text.indexOf(LINE)).toBeGreaterThan(text.indexOf('Failures (3)'));
    expect(text.indexOf(LINE)).toBeLessThan(text.indexOf('not_a_server_error ('));
    expect(text.split(LINE)).toHaveLength(2);
    expect(renderConsoleSummary(trickyReport())).not.toContain('curl lines use');
    const html = renderHtmlReport(withVariables());
    expect(html).toContain(
      '<p class="meta"><code>curl lines use $APIKIT_TOKEN and $APIKIT_ADMIN_TOKEN: export APIKIT_TOKEN=&lt;an access token of user@example.com&gt;',
    );
    const json = JSON.parse(renderJsonReport(withVariables())) as ConformanceReport;
    expect(json.summary.curlVariables?.map((v) => v.name)).toEqual([
      'APIKIT_TOKEN',
      'APIKIT_ADMIN_TOKEN',
    ]);
  });
});
