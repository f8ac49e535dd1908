import type { CheckResult, ConformanceReport } from '../report.js';
import { escapeMarkup } from './escape-markup.js';

/** Response bodies in a failure's text are cut here: a CI page shows the start. */
const BODY_LIMIT = 2000;

/**
 * The report as JUnit XML for CI test views (decision 0052): one `<testsuite>` per check, one
 * `<testcase>` per result named `check: METHOD path (operationId)`, so that a flat list of
 * failed tests (GitLab's merge request widget, GitHub annotations) says what failed where, and
 * classname the check, which Jenkins and GitLab group by; a repeated name within a suite gets
 * ` #2`, ` #3`. Failures carry expected, actual, the response body and the curl line; skips
 * their reason; a failure a baseline accepts is a skip `known failure (baseline): …` with the
 * failure's details (decision 0097). A run that did not finish adds a suite `apikit conform` whose case
 * `the run finished` is an error saying why, so CI never mistakes a partial report for a pass.
 *
 * @example
 * await writeFile('report.junit.xml', renderJunitReport(report));
 */
export function renderJunitReport(report: ConformanceReport): string {
  const { summary } = report;
  const checks = [...new Set(report.results.map((r) => r.check))];
  const suites = checks.map((check) => {
    const results = report.results.filter((r) => r.check === check);
    const seen = new Map<string, number>();
    const names = results.map((r) => {
      const name = caseName(r);
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      return n === 1 ? name : `${name} #${n}`;
    });
    const count = (status: CheckResult['status']) =>
      results.filter((r) => junitStatus(r) === status).length;
    const time = results.reduce((sum, r) => sum + (r.response?.durationMs ?? 0), 0);
    return [
      `  <testsuite ${attributes({
        name: check,
        tests: results.length,
        failures: count('failed'),
        errors: 0,
        skipped: count('skipped'),
        time: seconds(time),
        timestamp: summary.startedAt,
      })}>`,
      '    <properties>',
      `      <property ${attributes({ name: 'target', value: summary.target })}/>`,
      `      <property ${attributes({ name: 'seed', value: summary.seed })}/>`,
      `      <property ${attributes({ name: 'spec', value: `${summary.specTitle} ${summary.specVersion}` })}/>`,
      ...coverageProperties(summary.coverage),
      ...implementedProperties(summary.implemented),
      ...baselineProperties(summary.baseline),
      '    </properties>',
      ...results.map((r, i) => testcase(r, names[i] as string)),
      '  </testsuite>',
    ].join('\n');
  });
  if (summary.incomplete) suites.push(incompleteSuite(summary.incomplete, summary.startedAt));
  const baselined = report.results.filter((r) => r.baselined && r.status === 'failed').length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({
      name: `apikit conform ${summary.target}`,
      tests: summary.results.total + (summary.incomplete ? 1 : 0),
      failures: summary.results.failed - baselined,
      errors: summary.incomplete ? 1 : 0,
      skipped: summary.results.skipped + baselined,
      time: seconds(summary.durationMs),
      timestamp: summary.startedAt,
    })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** The coverage in numbers, where the report has them: no test case, as nothing failed. */
function coverageProperties(coverage: ConformanceReport['summary']['coverage']): string[] {
  if (!coverage) return [];
  const notProvokable = Object.values(coverage.notProvokable).reduce((sum, n) => sum + n, 0);
  return Object.entries({
    'coverage.documented': coverage.documented,
    'coverage.exercised': coverage.exercised,
    'coverage.notProvokable': notProvokable,
    'coverage.notReached': coverage.notReached,
  }).map(([name, value]) => `      <property ${attributes({ name, value })}/>`);
}

/**
 * What operation_implemented found, where it ran; each missing operation is besides a failed
 * case of the suite `operation_implemented`.
 */
function implementedProperties(implemented: ConformanceReport['summary']['implemented']): string[] {
  if (!implemented) return [];
  return Object.entries({
    'implemented.operations': implemented.operations,
    'implemented.of': implemented.of,
    'implemented.missing': implemented.missing.join(','),
  }).map(([name, value]) => `      <property ${attributes({ name, value })}/>`);
}

/** `check: METHOD path (operationId)`, or `check: all operations`. */
export function caseName(result: CheckResult): string {
  if (result.operationId === '*') return `${result.check}: all operations`;
  return `${result.check}: ${result.method} ${result.path} (${result.operationId})`;
}

function incompleteSuite(reason: string, startedAt: string): string {
  return [
    `  <testsuite ${attributes({ name: 'apikit conform', tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000', timestamp: startedAt })}>`,
    `    <testcase ${attributes({ name: 'the run finished', classname: 'apikit conform', time: '0.000' })}>`,
    `      <error ${attributes({ message: `the run did not finish: ${reason}`, type: 'incomplete' })}>${text(`the run did not finish: ${reason}\nthe results in this report are those of the checks that ran before`)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
}

function testcase(result: CheckResult, name: string): string {
  const open = `    <testcase ${attributes({
    name,
    classname: result.check,
    time: seconds(result.response?.durationMs ?? 0),
  })}`;
  if (result.status === 'passed') return `${open}/>`;
  if (result.status === 'skipped')
    return `${open}>\n      <skipped ${attributes({ message: result.message })}/>\n    </testcase>`;
  if (junitStatus(result) === 'skipped')
    return [
      `${open}>`,
      `      <skipped ${attributes({ message: `known failure (baseline): ${result.message}` })}>${text(failureBody(result))}</skipped>`,
      '    </testcase>',
    ].join('\n');
  return [
    `${open}>`,
    `      <failure ${attributes({ message: result.message, type: result.check })}>${text(failureBody(result))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

/**
 * A failure the baseline accepts is a skipped case: CI dashboards stay green for what the
 * team already knows, and still show it (with its details) among the skips.
 */
function junitStatus(result: CheckResult): CheckResult['status'] {
  return result.baselined && result.status === 'failed' ? 'skipped' : result.status;
}

/** The baseline's verdict in numbers, where a baseline judged the run. */
function baselineProperties(baseline: ConformanceReport['summary']['baseline']): string[] {
  if (!baseline) return [];
  return Object.entries({
    'baseline.new': baseline.new,
    'baseline.known': baseline.known,
    'baseline.fixed': baseline.fixed,
  }).map(([name, value]) => `      <property ${attributes({ name, value })}/>`);
}

function failureBody(result: CheckResult): string {
  const lines = [result.message];
  if (result.expected !== undefined) lines.push(`expected: ${result.expected}`);
  if (result.actual !== undefined) lines.push(`actual: ${result.actual}`);
  if (result.request) lines.push(`request: ${result.request.method} ${result.request.url}`);
  if (result.response) {
    lines.push(
      `response: ${result.response.status} in ${Math.round(result.response.durationMs)} ms`,
    );
    const body = result.response.body ?? '';
    if (body)
      lines.push(
        `response body: ${body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}… (${body.length} characters)` : body}`,
      );
  }
  if (result.curl) lines.push(`reproduce: ${result.curl}`);
  return lines.join('\n');
}

/** Element text; a CR is kept as a reference, which XML line-end normalization would drop. */
function text(value: string): string {
  return escapeMarkup(value).replace(/\r/g, '&#13;');
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${escapeMarkup(String(value), { attribute: true })}"`)
    .join(' ');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
