import { C, clause, judged, split, type Rule } from './rule.js';

const USER_STATES = ['INACTIVE', 'ACTIVE', 'BLOCKED'] as const;

/**
 * The clauses of an accepted transition of the user state machine: its 200, the user it answers
 * in the new status, and that status read back (`stays` is the fault of the last: answered, not
 * carried out).
 */
export function moved(
  id: string,
  says: string,
  source: Rule['source'],
  faultPrefix: string,
  to: string,
  stays: string,
): Rule {
  return split(id, says, source, [
    clause(
      'answers-200',
      'it answers 200 with the user',
      ['state_transitions'],
      [`${faultPrefix}-answers-204`],
    ),
    clause(
      'answer-shows-state',
      `the user it answers is ${to}`,
      ['state_transitions'],
      [`${faultPrefix}-answers-old-state`],
    ),
    clause('state-after', `a GET afterwards shows the user ${to}`, ['state_transitions'], [stays]),
  ]);
}

/** POST /admin/users/{id}/block and /unblock from every status of the user, and their faults. */
export function adminTransitions(): Rule[] {
  const block: Record<string, [string, string, string?]> = {
    INACTIVE: ['-> BLOCKED, 200', 'block-inactive-ignored', 'BLOCKED'],
    ACTIVE: ['-> BLOCKED, 200', 'block-active-ignored', 'BLOCKED'],
    BLOCKED: ['200, no change', 'block-blocked-409'],
  };
  const unblock: Record<string, [string, string, string?]> = {
    BLOCKED: ['-> INACTIVE, 200', 'unblock-to-active', 'INACTIVE'],
    INACTIVE: ['200, no change', 'unblock-inactive-409'],
    ACTIVE: ['200, no change (unblock never demotes an ACTIVE user)', 'unblock-demotes-active'],
  };
  const rule = (action: string, from: string, [says, fault, to]: [string, string, string?]) => {
    const id = `users.${action}.from-${from.toLowerCase()}`;
    const text = `POST /admin/users/{id}/${action} when ${from}: ${says}`;
    return to
      ? moved(id, text, C('Admin'), `${action}-${from.toLowerCase()}`, to, fault)
      : judged(id, text, C('Admin'), ['state_transitions'], [fault]);
  };
  return USER_STATES.flatMap((from) => [
    rule('block', from, block[from]!),
    rule('unblock', from, unblock[from]!),
  ]);
}
