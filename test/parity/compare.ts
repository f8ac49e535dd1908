import { normalizeAnswer } from './normalize.js';
import type { Exchange, Transcript } from './run-scenarios.js';

/** One way the mock's answer differs from the server's. */
export interface Difference {
  scenario: string;
  step: string;
  /** What was sent on the server side (path with captures resolved). */
  request: string;
  /** `status`, `header <name>`, `body<json pointer>` or `capture`. */
  field: string;
  server: string;
  mock: string;
}

/** Compares two transcripts of the same scenario, step by step, after normalization. */
export function compareTranscripts(
  server: Transcript,
  mock: Transcript,
  runStart: number,
): Difference[] {
  const differences: Difference[] = [];
  const count = Math.max(server.exchanges.length, mock.exchanges.length);
  for (let i = 0; i < count; i++) {
    const s = server.exchanges[i];
    const m = mock.exchanges[i];
    const step = (s ?? m)!.label;
    const request = s ? `${s.method} ${s.path}` : '(not sent)';
    const add = (field: string, serverValue: unknown, mockValue: unknown) =>
      differences.push({
        scenario: server.scenario,
        step,
        request,
        field,
        server: show(serverValue),
        mock: show(mockValue),
      });
    if (!s || !m) {
      add('step', s ? 'sent' : 'missing', m ? 'sent' : 'missing');
      continue;
    }
    if (s.unresolved.length > 0 || m.unresolved.length > 0)
      add('capture', unresolved(s), unresolved(m));
    const a = normalizeAnswer(s, runStart);
    const b = normalizeAnswer(m, runStart);
    if (a.status !== b.status) add('status', a.status, b.status);
    for (const name of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])) {
      if (a.headers[name] !== b.headers[name])
        add(`header ${name}`, a.headers[name] ?? '(absent)', b.headers[name] ?? '(absent)');
    }
    diffValues(a.body, b.body, '', (pointer, x, y) => add(`body${pointer || ' (whole)'}`, x, y));
  }
  return differences;
}

/** The differences as a readable list, grouped by step, for an assertion message. */
export function formatDifferences(differences: readonly Difference[]): string {
  const lines: string[] = [];
  let last = '';
  for (const d of differences) {
    const head = `${d.scenario} › ${d.step}`;
    if (head !== last) {
      lines.push(`- ${head}  [sent: ${d.request}]`);
      last = head;
    }
    lines.push(`    ${d.field}: server ${d.server} | mock ${d.mock}`);
  }
  return lines.join('\n');
}

function unresolved(exchange: Exchange): string {
  return exchange.unresolved.length === 0
    ? 'all captured'
    : `not captured: ${exchange.unresolved.join(', ')}`;
}

function diffValues(
  a: unknown,
  b: unknown,
  pointer: string,
  report: (pointer: string, a: unknown, b: unknown) => void,
): void {
  if (Object.is(a, b)) return;
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(a) !== kind(b) || (kind(a) !== 'array' && kind(a) !== 'object')) {
    report(pointer, a, b);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) report(`${pointer}/length`, a.length, b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      diffValues(a[i], b[i], `${pointer}/${i}`, report);
    return;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
    const path = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!(key in x)) report(path, '(absent)', y[key]);
    else if (!(key in y)) report(path, x[key], '(absent)');
    else diffValues(x[key], y[key], path, report);
  }
}

function show(value: unknown): string {
  if (value === '(absent)') return value;
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
