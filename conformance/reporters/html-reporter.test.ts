import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../report.js';
import { escapeMarkup } from './escape-markup.js';
import { renderHtmlReport } from './html-reporter.js';
import { TRICKY_TEXT, trickyReport } from '../../test/support/conformance/tricky-report.js';

const report = trickyReport();
const html = renderHtmlReport(report);

/** Every string in the report, as the reporter escapes it. */
function escapedData(value: unknown): string[] {
  if (typeof value === 'string') return [escapeMarkup(value)];
  if (Array.isArray(value)) return value.flatMap(escapedData);
  if (value && typeof value === 'object') return Object.values(value).flatMap(escapedData);
  return [];
}

describe('renderHtmlReport', () => {
  it('is one document that references nothing outside itself', () => {
    let rest = html;
    // Longest first, so that a value containing another is removed whole.
    for (const data of escapedData(report).sort((a, b) => b.length - a.length))
      rest = rest.split(data).join('');
    expect(rest).not.toMatch(/https?:\/\//i);
    expect(rest).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    expect(html).not.toMatch(/<(link|iframe|object|embed|img|base)\b/i);
    expect(rest).not.toMatch(/\b(src|srcset|action|formaction)\s*=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html.match(/href="([^"]*)"/g)?.every((a) => a.startsWith('href="#'))).toBe(true);
    expect(html).toContain('Content-Security-Policy');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('escapes markup injected through report data', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=&quot;https://evil.example/x.png&quot;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('alert(1)</script>');
    expect(html).toContain('User/Order &lt;API&gt; &amp; &quot;friends&quot;');
    expect(html).toContain('naïve 日本語 😀');
    expect(html).toContain('nul \\u0000 bell \\u0007 esc \\u001B[31m');
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
  });

  it('shows the summary, failures grouped by check with their exchange, skips and coverage', () => {
    expect(html).toMatch(/<b>3<\/b>failed/);
    expect(html).toContain('<code>4242</code>');
    const failures = html.slice(html.indexOf('id="failures"'), html.indexOf('id="skipped"'));
    expect(failures.match(/<details>/g)).toHaveLength(3);
    expect(failures.indexOf('not_a_server_error')).toBeLessThan(
      failures.indexOf('response_schema_conformance'),
    );
    expect(failures).toContain('<dt>Expected</dt><dd><pre>a status below 500</pre></dd>');
    expect(failures).toContain('<h4>Request</h4><pre>POST http://127.0.0.1:3000/api/v1/users');
    expect(failures).toContain('<h4>Response</h4><pre>500 (13 ms)');
    expect(failures).toContain(escapeMarkup(`<html><body>${TRICKY_TEXT}</body></html>`));
    expect(failures).toContain(escapeMarkup(report.results[1]?.curl ?? ''));
    const skipped = html.slice(html.indexOf('id="skipped"'), html.indexOf('id="passed"'));
    expect(skipped).toMatch(/no admin credentials[^<]*<\/td><td>2<\/td>/);
    const coverage = html.slice(html.indexOf('id="coverage"'));
    expect(coverage).toContain('4 of 6 documented (operation, status) pairs exercised (67%)');
    expect(coverage).toContain('<td class="c undocumented" title="500: undocumented">!</td>');
  });

  it('says why each unexercised status was not reached', () => {
    const withReasons = trickyReport();
    withReasons.coverage[0]!.documented.push('503');
    withReasons.coverage[0]!.unexercised = [
      { status: '400', reason: 'not-reached', detail: 'provokable' },
      { status: '503', reason: 'server-fault', detail: 'needs the target failing' },
    ];
    const coverage = renderHtmlReport(withReasons).slice(html.indexOf('id="coverage"'));
    expect(coverage).toContain(
      '<td class="c excused" title="503: server-fault: needs the target failing">–</td>',
    );
    expect(coverage).toContain('<td class="c missed" title="400: not-reached: provokable">○</td>');
    expect(coverage).toContain(
      'Provokable but not reached: 2: <code>listUsers 400</code>, <code>createUser 400</code>.',
    );
    expect(coverage).toMatch(
      /Not provokable by this run: <span title="[^"]+">1 server-fault<\/span>/,
    );
  });

  it('renders an empty run', () => {
    const empty: ConformanceReport = {
      ...report,
      results: [],
      coverage: [],
      summary: { ...report.summary, results: { total: 0, passed: 0, failed: 0, skipped: 0 } },
    };
    const page = renderHtmlReport(empty);
    expect(page).toContain('✓ no check failed');
    expect(page).toContain('<h2>Failures</h2><p>None.</p>');
  });
});
