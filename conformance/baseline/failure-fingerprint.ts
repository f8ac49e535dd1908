import type { CheckResult } from '../report.js';
import type { BaselineEntry } from './baseline.js';

/**
 * The baseline entry of a failed result: its check, its operation and its rule. The rule is
 * the failure's `expected` (what the contract asks for; its message when it has none) with
 * what changes between runs blanked out by `normalizeRule`. The message is a second choice
 * only: it describes the answer (counts, indexes, the values the target sent back), so two
 * runs word it differently more often than they word what was expected.
 *
 * @example
 * failureFingerprint({ check: 'use_after_free', operationId: 'getUser', expected: '404', ... });
 * // { check: 'use_after_free', operationId: 'getUser', rule: '404' }
 */
export function failureFingerprint(
  result: Pick<CheckResult, 'check' | 'operationId' | 'expected' | 'message'>,
): BaselineEntry {
  return {
    check: result.check,
    operationId: result.operationId,
    rule: normalizeRule(result.expected ?? result.message),
  };
}

/** The longest rule kept: enough to tell two rules of one check and operation apart. */
const RULE_LIMIT = 200;

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';

/**
 * What changes between two runs against the same target, each with what stands in its place.
 * The order matters: a URL or a JSON body is blanked whole before its digits are looked at.
 */
const VOLATILE: [RegExp, string][] = [
  // Bodies the target sent back or the run generated: their values are the run's data.
  [/[{[]"[^]*[}\]]/g, '{…}'],
  // A URL ends before a quote, a bracket or the punctuation after it.
  [/\bhttps?:\/\/[^\s"'<>]*[^\s"'<>).,;:]/g, '<url>'],
  // IMF-fixdate (HTTP dates) and ISO 8601 timestamps: the clock.
  [new RegExp(`\\b${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT`, 'g'), '<date>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<date>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  // Quoted values: entity tags, generated names, header values the run made up.
  [/"(?:[^"\\]|\\.)*"/g, '"…"'],
];

/** An RFC and its section are words of the rule, not data. */
const RFC = /\bRFC \d+(?: \d+(?:\.\d+)*)?/g;

/**
 * A failure's text with the run's data blanked out: bodies, URLs (their ports), dates, UUIDs,
 * emails and quoted values give way to a placeholder, and every number to `#` but a status
 * code standing alone (`404`, `412 for …`; not an id in `/users/404`). Pure: one text, one rule.
 *
 * @example
 * normalizeRule('a new request carried out (2xx, Location other than /api/v1/users/4131)');
 * // 'a new request carried out (2xx, Location other than /api/v1/users/#)'
 */
export function normalizeRule(text: string): string {
  let rule = text.replace(/\s+/g, ' ').trim();
  for (const [pattern, placeholder] of VOLATILE) rule = rule.replace(pattern, placeholder);
  const kept: string[] = [];
  rule = rule.replace(RFC, (rfc) => `\u0000${kept.push(rfc) - 1}\u0000`);
  rule = rule.replace(NUMBER, (digits: string, at: number) =>
    isStatus(rule, digits, at) ? digits : '#',
  );
  rule = rule.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)] ?? '');
  return rule.length > RULE_LIMIT ? `${rule.slice(0, RULE_LIMIT - 1)}…` : rule;
}

/** A number standing alone: not part of a word (`v1`, `2xx`, `HS256`) nor of a kept RFC. */
const NUMBER = /(?<![\p{L}\p{N}\u0000])\p{N}+(?![\p{L}\p{N}\u0000])/gu;

/**
 * A status code as a rule names one: three digits from 100 to 599, not a segment of a path,
 * an id, a key or a decimal (`/users/404`, `#123`, `id=200`, `1.500`), nor a value the run
 * chose (`id > 250`, `greater than 300`, and `age: 120` where a value ends the text or comes
 * before the next `key:`; `documented: 201, 400` lists statuses).
 */
function isStatus(text: string, digits: string, at: number): boolean {
  if (!/^[1-5]\d\d$/.test(digits)) return false;
  const before = text.slice(Math.max(0, at - 5), at);
  const rest = text.slice(at + digits.length);
  if (/(?:[/#.=_-]|< |[^-]> |\bthan )$/.test(before) || /^(?:[/=_-]|\.\d)/.test(rest)) return false;
  return !(before.endsWith(': ') && /^(?:$|, [\w-]+: )/.test(rest));
}
