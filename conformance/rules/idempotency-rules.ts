import { C, clause, judged, outside, outsideClause, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');

/** Idempotency keys: replay, another body, in flight, scope, length, how long. */
export const idempotencyRules: Rule[] = [
  split(
    'idem.replay',
    'the same Idempotency-Key with the same body within 24 hours replays the first answer (status, body, Location)',
    SHARED,
    [
      clause(
        'once',
        'the retried write is not carried out again (one resource, not two)',
        ['idempotency_key_replay'],
        ['idempotency-key-ignored'],
      ),
      clause(
        'status',
        'the replay has the status of the first answer',
        ['idempotency_key_replay'],
        ['idempotency-replay-200'],
      ),
      clause(
        'body',
        'the replay has the body of the first answer',
        ['idempotency_key_replay'],
        ['idempotency-replay-without-body'],
      ),
      clause(
        'location',
        'the replay has the Location of the first answer',
        ['idempotency_key_replay'],
        ['idempotency-replay-without-location'],
      ),
    ],
  ),
  judged(
    'idem.other-body-422',
    'the same Idempotency-Key with another body: 422',
    SHARED,
    ['idempotency_key_replay'],
    ['idempotency-replay-ignores-body'],
  ),
  judged(
    'idem.in-flight-409',
    'the same Idempotency-Key while the first is still being handled: 409',
    SHARED,
    ['idempotency_key_in_flight'],
    ['in-flight-key-ignored'],
    "judged as far as the outside can: four requests sent at once with one key and body are carried out once, each answered that 2xx or 409; whether one arrives while the first is still handled is the target's timing (a fast target replays them all), so a run never demands the 409 itself",
  ),
  split(
    'idem.scope',
    'keys are scoped to (subject, method, path); every answer to a request that passed validation is remembered',
    HEADERS,
    [
      clause(
        'path',
        'the same key on another path is a new request',
        ['idempotency_key_scope'],
        ['idempotency-key-ignores-path'],
      ),
      clause(
        'subject',
        'the same key from another credential is a new request',
        ['idempotency_key_scope'],
        ['idempotency-key-ignores-subject'],
      ),
      outsideClause(
        'method',
        'the same key with another method is a new request',
        'only POSTs take an Idempotency-Key in this contract: no second method of one path can carry the key',
      ),
      clause(
        'not-after-400',
        'an answer to a request that failed validation (400) is not remembered (where x-apikit-http declares idempotencyAfterValidation)',
        ['idempotency_key_validation'],
        ['idempotency-remembers-400'],
      ),
      clause(
        'refusals-remembered',
        'a refusal after validation (a conflict, x-apikit-unique) is remembered and replayed after its cause is gone',
        ['idempotency_key_refusals'],
        ['idempotency-forgets-conflicts'],
      ),
    ],
  ),
  judged(
    'idem.key-length',
    'keys are at most 255 characters (longer: 400, pointer #/header/Idempotency-Key)',
    HEADERS,
    ['negative_data_rejection'],
    ['long-idempotency-key-ignored'],
  ),
  outside(
    'idem.24-hours',
    'a key is remembered for 24 hours',
    SHARED,
    'a run cannot wait 24 hours',
  ),
];
