import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { visibleControls } from './escape-markup.js';
import { caseName, renderJunitReport } from './junit-reporter.js';
import { TRICKY_TEXT, trickyReport } from '../../test/support/conformance/tricky-report.js';

const xml = renderJunitReport(trickyReport());
const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

interface Testcase {
  '@_name': string;
  '@_classname': string;
  '@_time': string;
  failure?: { '@_message': string; '#text': string };
  skipped?: { '@_message': string };
}
interface Suite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_skipped': string;
  '@_errors': string;
  '@_time': string;
  testcase: Testcase | Testcase[];
}

const parsed = new XMLParser({
  ignoreAttributes: false,
  parseAttributeValue: false,
  parseTagValue: false,
  htmlEntities: true,
}).parse(xml) as {
  testsuites: Record<string, string> & { testsuite: Suite[] };
};
const suites = asArray(parsed.testsuites.testsuite);
const suite = (name: string) => suites.find((s) => s['@_name'] === name) as Suite;

describe('renderJunitReport', () => {
  it('is well-formed XML 1.0 without a forbidden character', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(xml).not.toContain('<script>');
  });

  it('has one suite per check with the counts of its results', () => {
    expect(parsed.testsuites).toMatchObject({
      '@_tests': '8',
      '@_failures': '3',
      '@_skipped': '3',
      '@_errors': '0',
      '@_time': '12.345',
    });
    expect(suites.map((s) => s['@_name'])).toEqual([
      'not_a_server_error',
      'response_schema_conformance',
      'admin_only',
      'rate_limit_headers',
    ]);
    expect(suite('not_a_server_error')).toMatchObject({
      '@_tests': '3',
      '@_failures': '2',
      '@_skipped': '0',
      '@_time': '0.013',
    });
    expect(suite('admin_only')).toMatchObject({
      '@_tests': '2',
      '@_failures': '0',
      '@_skipped': '2',
    });
    const total = suites.reduce((n, s) => n + asArray(s.testcase).length, 0);
    expect(total).toBe(8);
  });

  it('names test cases check: METHOD path (operationId) with the check as classname', () => {
    const cases = asArray(suite('not_a_server_error').testcase);
    expect(cases.map((c) => c['@_name'])).toEqual([
      'not_a_server_error: GET /users (listUsers)',
      'not_a_server_error: POST /users (createUser)',
      'not_a_server_error: GET /users/{id} (getUser)',
    ]);
    expect(cases.every((c) => c['@_classname'] === 'not_a_server_error')).toBe(true);
    expect(asArray(suite('rate_limit_headers').testcase)[0]?.['@_name']).toBe(
      'rate_limit_headers: all operations',
    );
  });

  it('numbers a repeated name within a suite, so dashboards keep both', () => {
    const report = trickyReport();
    const first = report.results.find((r) => r.check === 'not_a_server_error')!;
    report.results.push({ ...first });
    const again = new XMLParser({ ignoreAttributes: false }).parse(renderJunitReport(report)) as {
      testsuites: { testsuite: Suite[] };
    };
    const names = asArray(
      again.testsuites.testsuite.find((s) => s['@_name'] === 'not_a_server_error')?.testcase,
    ).map((c) => c['@_name']);
    expect(names).toContain(`${caseName(first)} #2`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('marks a partial report with an error case saying why the run did not finish', () => {
    const report = trickyReport();
    report.summary.incomplete = 'interrupted (SIGINT)';
    const doc = new XMLParser({ ignoreAttributes: false }).parse(renderJunitReport(report)) as {
      testsuites: Record<string, string> & {
        testsuite: (Suite & { testcase: { error?: { '@_message': string } } })[];
      };
    };
    expect(doc.testsuites['@_errors']).toBe('1');
    const run = doc.testsuites.testsuite.find((s) => s['@_name'] === 'apikit conform');
    expect(run?.testcase.error?.['@_message']).toBe('the run did not finish: interrupted (SIGINT)');
  });

  it('keeps the text of failures and skips, control characters made visible', () => {
    const failure = asArray(suite('not_a_server_error').testcase)[1]?.failure;
    expect(failure?.['@_message']).toBe(`the server answered 500: ${visibleControls(TRICKY_TEXT)}`);
    expect(failure?.['#text']).toContain('expected: a status below 500\nactual: 500');
    expect(failure?.['#text']).toContain(
      `reproduce: curl -i -X POST 'http://127.0.0.1:3000/api/v1/users'`,
    );
    expect(failure?.['#text']).toContain('\\u0007');
    const skip = asArray(suite('admin_only').testcase)[0]?.skipped;
    expect(skip?.['@_message']).toBe('no admin credentials (--admin-username/--admin-password)');
  });

  it('carries the coverage in numbers as properties of each suite, when the report has them', () => {
    const report = trickyReport();
    report.summary.coverage = {
      documented: 6,
      exercised: 4,
      notProvokable: { 'server-fault': 1 },
      notReached: 1,
      undocumented: 1,
    };
    const xml = renderJunitReport(report);
    expect(xml).toContain('<property name="coverage.exercised" value="4"/>');
    expect(xml).toContain('<property name="coverage.notReached" value="1"/>');
    expect(renderJunitReport(trickyReport())).not.toContain('coverage.');
  });
});
