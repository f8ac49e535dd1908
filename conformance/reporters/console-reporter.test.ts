import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../run-conformance.js';
import { createConsoleProgress, renderConsoleSummary } from './console-reporter.js';
import { trickyReport } from '../../test/support/conformance/tricky-report.js';

describe('renderConsoleSummary', () => {
  const text = renderConsoleSummary(trickyReport());

  it('groups failures by check, each with expected, actual and curl', () => {
    const failures = text.slice(text.indexOf('Failures (3)'), text.indexOf('Skipped'));
    expect(failures).toMatch(/^not_a_server_error \(2\)$/m);
    expect(failures).toMatch(/^response_schema_conformance \(1\)$/m);
    expect(failures.indexOf('not_a_server_error')).toBeLessThan(
      failures.indexOf('response_schema_conformance'),
    );
    expect(failures).toContain(
      [
        '  ✗ getUser GET /users/{id}',
        '    the server answered 503',
        '    expected: a status below 500',
        '    actual:   503',
        "    curl -i -X GET 'http://127.0.0.1:3000/api/v1/users/1'",
      ].join('\n'),
    );
  });

  it('groups and counts skips by reason', () => {
    expect(text).toContain(
      'Skipped (3)\n  admin_only ×2: no admin credentials (--admin-username/--admin-password)\n' +
        '    deleteUser, listUsers\n',
    );
    expect(text).toMatch(/rate_limit_headers ×1: the target sends no RateLimit headers/);
  });

  it('prints the summary line with the seed, then the coverage matrix', () => {
    expect(text).toContain(
      '3 checks, 8 results: 2 passed, 3 failed, 3 skipped · 321 requests · 12.3 s · seed 4242\n',
    );
    const matrix = text.slice(text.indexOf('Coverage'));
    expect(matrix).toContain('operation               200 201 400 401 422 4XX 500');
    expect(matrix).toContain('listUsers GET /users      ●   ·   ○   ●   ·   ·   ·');
    expect(matrix).toContain('createUser POST /users    ·   ●   ○   ·   ●   ●   !');
    expect(matrix).toContain('4/6 documented (operation, status) pairs exercised (67%)');
    expect(text.indexOf('seed 4242')).toBeLessThan(text.indexOf('Coverage'));
  });

  it('counts the unexercised pairs by reason and names the ones provokable but not reached', () => {
    // The tricky report's rows carry no reasons (an older runner's): their missing pairs are gaps.
    expect(text).toContain('provokable but not reached: 2: listUsers 400, createUser 400');
    const report = trickyReport();
    report.coverage[0]!.documented.push('503', '429');
    report.coverage[0]!.unexercised = [
      { status: '400', reason: 'not-reached', detail: 'provokable' },
      { status: '503', reason: 'server-fault', detail: 'needs the target failing' },
      { status: '429', reason: 'rate-limit-off', detail: 'no RateLimit headers' },
    ];
    const withReasons = renderConsoleSummary(report);
    expect(withReasons).toContain('listUsers GET /users      ●   ·   ○   ●   ·   –   ·   ·   –');
    expect(withReasons).toMatch(/^not provokable by this run: 1 rate-limit-off, 1 server-fault/m);
    expect(withReasons).toContain('provokable but not reached: 2: listUsers 400, createUser 400');
  });

  it('never passes control characters from the target to the terminal', () => {
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(text).toContain('esc \\u001B[31mred');
    expect(text).toContain('naïve 日本語 😀');
  });

  it('colors only when asked', () => {
    expect(text).not.toContain('\x1b[');
    const colored = renderConsoleSummary(trickyReport(), { color: true });
    expect(colored).toContain('\x1b[31m3 failed\x1b[39m');
  });

  it('cuts a long failure list per check and says how many more', () => {
    const report = trickyReport();
    const failure = report.results[2]!;
    report.results.push(...Array.from({ length: 30 }, () => ({ ...failure })));
    const long = renderConsoleSummary(report, { maxFailuresPerCheck: 5 });
    expect(long).toContain('… and 27 more (see --reporter html or json)');
  });
});

describe('createConsoleProgress', () => {
  const events: ProgressEvent[] = [
    { kind: 'start', operations: 67, checks: ['a', 'b'] },
    { kind: 'check', check: 'negative_data_rejection', index: 0, total: 2 },
    ...Array.from({ length: 500 }, (_, i): ProgressEvent => ({
      kind: 'result',
      requests: i + 1,
      result: { ...trickyReport().results[i % 2]!, operationId: `op${i}` },
    })),
    { kind: 'check', check: 'use_after_free', index: 1, total: 2 },
    { kind: 'cleanup' },
  ];
  const run = (tty: boolean, step: number) => {
    let out = '';
    let clock = 0;
    const onProgress = createConsoleProgress(
      { isTTY: tty, columns: 60, write: (chunk: string) => (out += chunk) },
      { now: () => (clock += step), heartbeat: false },
    );
    for (const event of events) onProgress(event);
    return out;
  };

  it('prints a few plain lines when not a terminal, not one per result', () => {
    const out = run(false, 50);
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.length).toBeLessThan(12);
    expect(out).not.toContain('\r');
    expect(out).toMatch(
      /conform: 1\/2 negative_data_rejection · \d+ requests · \d+ results · \d+ failed/,
    );
    expect(lines.at(-1)).toBe('conform: 500 requests · 500 results · 250 failed; cleaning up');
  });

  it('redraws one line on a terminal, cut to its width, and clears it at the end', () => {
    const out = run(true, 10);
    expect(out.split('\n')).toHaveLength(3);
    const frames = out.split('\r\x1b[2K').slice(1, -1);
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.length).toBeLessThan(100);
    expect(frames.every((f) => f.length <= 59)).toBe(true);
    expect(frames.at(-1)).toMatch(/^conform: 2\/2 use_after_free/);
  });
});
