import { clausesOf, ruleStatus, type NamedClause, type RuleArea, type RuleStatus } from './rule.js';

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

/** The counts shown at the top of the page: by clause, the observable statements. */
export function ruleCounts(areas: RuleArea[]) {
  const rules = areas.flatMap((a) => a.rules);
  const clauses = rules.flatMap(clausesOf);
  const count = (s: RuleStatus) => clauses.filter((c) => ruleStatus(c) === s).length;
  return {
    rules: rules.length,
    clauses: clauses.length,
    checked: clauses.filter((c) => c.checks.length > 0).length,
    proven: count('proven'),
    noCheck: count('no-check'),
    noFault: count('no-fault'),
    notCheckable: count('not-checkable'),
  };
}

function row(clause: NamedClause): string {
  // The status already says 'no check yet' or 'no fault yet'; the note adds only the why.
  const note = (clause.notCheckable ?? clause.gap ?? '').replace(/^no (check|fault) yet:? ?/, '');
  const status = STATUS_TEXT[ruleStatus(clause)];
  const { rule } = clause;
  const source = `${DOCUMENT[rule.source[0]]}: ${rule.source[1]}`;
  // A clause of a split rule reads after its rule's own words.
  const says = rule.clauses ? `${rule.says}: ${clause.says}` : clause.says;
  return `| \`${clause.id}\` | ${cell(says)} | ${cell(source)} | ${code(clause.checks)} | ${code(clause.faults)} | ${status}${note ? `: ${cell(note)}` : ''} |`;
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
    .flatMap((a) => a.rules.flatMap(clausesOf))
    .filter((c) => c.notCheckable !== undefined)
    .map((c) => `- \`${c.id}\`: ${c.notCheckable}`);
  const lines = [
    '# Conformance rules',
    '',
    '<!-- Generated from conformance/rules/ by `npm run render:rules`; do not edit by hand. -->',
    '',
    'Every rule of the interface document (docs/interface-document.md) and the contract page,',
    'split into its clauses (one observable statement each), with the checks of the conformance',
    'runner that judge each clause and the faults of the fault-injection suite',
    '(test/support/fault-injection/) that prove those checks catch a break of that clause alone.',
    '',
    `- rules: ${c.rules}, in clauses: ${c.clauses}`,
    `- clauses checked (at least one check): ${c.checked}`,
    `- clauses proven by a fault: ${c.proven}`,
    `- clauses without a check: ${c.noCheck}`,
    `- clauses without a fault (checked only): ${c.noFault}`,
    `- clauses not checkable from outside: ${c.notCheckable}`,
    '',
    'A clause is _checked_ when a registered check (`apikit conform --checks NAME`) judges it, as',
    "read in the check's code; _proven_ when a fault of the table, whose expected check is one",
    "of the clause's checks, breaks that clause and no other. Anything less is listed as a gap,",
    'with why. A clause id is `rule#clause`; a rule that says one thing is its own clause.',
    '',
    '## Not checkable from outside, and why',
    '',
    ...notCheckable,
  ];
  const generic = Object.entries(checksWithoutRule).map(([name, why]) => `- \`${name}\`: ${why}`);
  if (generic.length) lines.push('', '## Checks that judge no rule here', '', ...generic);
  for (const area of areas) {
    const clauses = area.rules.flatMap(clausesOf);
    lines.push('', `## ${area.title} (\`${area.id}\`, ${clauses.length} clauses)`, '');
    lines.push('| clause | says | source | checks | faults | status |');
    lines.push('|---|---|---|---|---|---|');
    lines.push(...clauses.map(row));
  }
  return `${lines.join('\n')}\n`;
}
