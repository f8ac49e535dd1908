import type { CheckResult, ConformanceReport } from '../report.js';
import { escapeMarkup } from './escape-markup.js';
import { resultName } from './group-results.js';

/**
 * The report as JUnit XML for CI test views: one `<testsuite>` per check, one `<testcase>`
 * per result (name `operationId METHOD path`, classname the check), failures with expected,
 * actual and the curl line in the body, skips with their reason.
 *
 * @example
 * await writeFile('report.junit.xml', renderJunitReport(report));
 */
export function renderJunitReport(report: ConformanceReport): string {
  const { summary } = report;
  const checks = [...new Set(report.results.map((r) => r.check))];
  const suites = checks.map((check) => {
    const results = report.results.filter((r) => r.check === check);
    const count = (status: CheckResult['status']) =>
      results.filter((r) => r.status === status).length;
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
      '    </properties>',
      ...results.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({
      name: `apikit conform ${summary.target}`,
      tests: summary.results.total,
      failures: summary.results.failed,
      errors: 0,
      skipped: summary.results.skipped,
      time: seconds(summary.durationMs),
      timestamp: summary.startedAt,
    })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(result: CheckResult): string {
  const open = `    <testcase ${attributes({
    name: resultName(result),
    classname: result.check,
    time: seconds(result.response?.durationMs ?? 0),
  })}`;
  if (result.status === 'passed') return `${open}/>`;
  if (result.status === 'skipped')
    return `${open}>\n      <skipped ${attributes({ message: result.message })}/>\n    </testcase>`;
  return [
    `${open}>`,
    `      <failure ${attributes({ message: result.message, type: result.check })}>${text(failureBody(result))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function failureBody(result: CheckResult): string {
  const lines = [result.message];
  if (result.expected !== undefined) lines.push(`expected: ${result.expected}`);
  if (result.actual !== undefined) lines.push(`actual: ${result.actual}`);
  if (result.request) lines.push(`request: ${result.request.method} ${result.request.url}`);
  if (result.response)
    lines.push(
      `response: ${result.response.status} in ${Math.round(result.response.durationMs)} ms`,
    );
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
