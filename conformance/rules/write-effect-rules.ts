import { C, clause, split, type Rule } from './rule.js';

/**
 * What a successful write leaves behind, seen by reading the resource right after it
 * (decision 0125): the answers of PUT, PATCH and POST describe the stored state, so a read
 * with nothing written in between shows the same.
 */
export const writeEffectRules: Rule[] = [
  split(
    'store.writes-as-answered',
    'a write answered 2xx happened as answered: PATCH "200 with the user" (the order), PUT "replaces", POST "201 with the order and Location"',
    C('Orders, order items, categories'),
    [
      clause(
        'patch-stored',
        'a PATCH answered 200 is stored: the resource read right after it is the representation the PATCH answered',
        ['writes_read_back'],
        ['order-patch-not-stored'],
      ),
      clause(
        'put-stored-as-answered',
        'a PUT answered 200 stores what it answered: a read right after it shows the same values, not others',
        ['writes_read_back'],
        ['order-put-stores-other'],
      ),
      clause(
        'created-once',
        'a creation answered 201 adds exactly one resource: the collection read right before and right after it grew by one',
        ['writes_read_back'],
        ['order-created-twice'],
      ),
    ],
  ),
];
