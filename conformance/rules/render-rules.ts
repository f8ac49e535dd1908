import { ruleStatus, type Rule, type RuleArea, type RuleStatus } from './rule.js';

const STATUS_TEXT: Record<RuleStatus, string> = {
  proven: 'proven',
  'no-fault': 'checked, no fault yet',
  'no-check': 'no check yet',
  'not-checkable': 'not checkable',
};

const DOCUMENT = { interface: 'interface document', contract: 'contract page' } as const;

/** A table cell: pipes escaped, line breaks flattened. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (names: string[]) => (names.length ? names.map((n) => `\`${n}\``).join(', ') : '—');

/** The counts shown at the top of the page. */
export function ruleCounts(areas: RuleArea[]) {
  const rules = areas.flatMap((a) => a.rules);
  const count = (s: RuleStatus) => rules.filter((r) => ruleStatus(r) === s).length;
  return {
    rules: rules.length,
    checked: rules.filter((r) => r.checks.length > 0).length,
    proven: count('proven'),
    noCheck: count('no-check'),
    noFault: count('no-fault'),
    notCheckable: count('not-checkable'),
  };
}

function row(rule: Rule): string {
  // The status already says 'no check yet' or 'no fault yet'; the note adds only the why.
  const note = (rule.notCheckable ?? rule.gap ?? '').replace(/^no (check|fault) yet:? ?/, '');
  const status = STATUS_TEXT[ruleStatus(rule)];
  const source = `${DOCUMENT[rule.source[0]]}: ${rule.source[1]}`;
  return `| \`${rule.id}\` | ${cell(rule.says)} | ${cell(source)} | ${code(rule.checks)} | ${code(rule.faults)} | ${status}${note ? `: ${cell(note)}` : ''} |`;
}

/**
 * docs/conformance-rules.md from the inventory: counts first, then one table per area.
 *
 * @example
 * writeFileSync('docs/conformance-rules.md', renderRules(ruleInventory, checksWithoutRule));
 */
export function renderRules(
  areas: RuleArea[],
  checksWithoutRule: Record<string, string> = {},
): string {
  const c = ruleCounts(areas);
  const notCheckable = areas
    .flatMap((a) => a.rules)
    .filter((r) => r.notCheckable !== undefined)
    .map((r) => `- \`${r.id}\`: ${r.notCheckable}`);
  const lines = [
    '# Conformance rules',
    '',
    '<!-- Generated from conformance/rules/ by `npm run render:rules`; do not edit by hand. -->',
    '',
    'Every rule of the interface document (docs/interface-document.md) and the contract page,',
    'with the checks of the conformance runner that judge it and the faults of the',
    'fault-injection suite (test/support/fault-injection/) that prove those checks catch a break.',
    '',
    `- rules: ${c.rules}`,
    `- checked (at least one check): ${c.checked}`,
    `- proven by a fault: ${c.proven}`,
    `- gaps without a check: ${c.noCheck}`,
    `- gaps without a fault (checked only): ${c.noFault}`,
    `- not checkable from outside: ${c.notCheckable}`,
    '',
    'A rule is _checked_ when a registered check (`apikit conform --checks NAME`) judges it, as',
    "read in the check's code; _proven_ when a fault of the table, whose expected check is one",
    "of the rule's checks, breaks that very rule. Anything less is listed as a gap, with why.",
    '',
    '## Not checkable from outside, and why',
    '',
    ...notCheckable,
  ];
  const generic = Object.entries(checksWithoutRule).map(([name, why]) => `- \`${name}\`: ${why}`);
  if (generic.length) lines.push('', '## Checks that judge no rule here', '', ...generic);
  for (const area of areas) {
    lines.push('', `## ${area.title} (\`${area.id}\`, ${area.rules.length})`, '');
    lines.push('| id | rule | source | checks | faults | status |');
    lines.push('|---|---|---|---|---|---|');
    lines.push(...area.rules.map(row));
  }
  return `${lines.join('\n')}\n`;
}
