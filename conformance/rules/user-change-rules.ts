import { C, clause, I, judged, outsideClause, split, type Rule } from './rule.js';
import { adminTransitions, moved } from './user-transition-rules.js';

const USERS = C('Users');
const PRECISE = C('Precise rules / Users, orders, roles');

/** Users: replace and update, delete and what goes with it, the user state machine. */
export const userChangeRules: Rule[] = [
  split(
    'users.put.replace',
    'PUT /users/{id} replaces name, email and age (age not sent -> null)',
    USERS,
    [
      clause(
        'sent-values',
        'the values sent replace the old ones (the answer shows none of them kept)',
        ['put_create_and_replace'],
        ['put-ignores-email'],
      ),
      clause(
        'unsent-age-null',
        'age not sent becomes null',
        ['put_idempotent'],
        ['put-keeps-unsent'],
      ),
    ],
  ),
  split('users.put.keeps-status-created', 'PUT /users/{id}: status and createdAt stay', PRECISE, [
    clause(
      'status-stays',
      'a PUT leaves the status as it was',
      ['read_only_ignored'],
      ['put-resets-status'],
    ),
    clause(
      'created-at-stays',
      'a PUT leaves createdAt as it was',
      ['read_only_ignored'],
      ['put-renews-created-at'],
    ),
  ]),
  split(
    'users.put.create-at-absent',
    'PUT to an absent id creates the user there: 201 with Location',
    USERS,
    [
      clause(
        'status-201',
        'a PUT that creates answers 201',
        ['put_create_and_replace'],
        ['put-create-answers-200'],
      ),
      clause(
        'location',
        'the 201 carries the Location of the user made',
        ['response_headers_conformance'],
        ['put-create-location-dropped'],
      ),
      clause(
        'location-path',
        "the Location is the request's own path (the user made there)",
        ['resource_identity'],
        ['put-create-location-other-id'],
      ),
    ],
  ),
  split(
    'users.put.create-same-as-post',
    'PUT-create has the same effects as POST (INACTIVE, holds USER, no password)',
    PRECISE,
    [
      clause(
        'starts-inactive',
        'a user a PUT created starts INACTIVE',
        ['put_create_and_replace'],
        ['put-create-active'],
      ),
      clause(
        'holds-user',
        'a user a PUT created holds USER',
        ['put_create_and_replace'],
        ['put-create-without-role'],
      ),
      outsideClause(
        'no-password',
        'a user a PUT created has no password',
        'a user without a password and one whose password the client does not know look the same from outside: every login is refused, and no answer shows a password',
      ),
    ],
  ),
  judged(
    'users.read-only-ignored',
    'read-only fields (id, status, createdAt, updatedAt) in PUT and PATCH bodies are accepted and ignored',
    USERS,
    ['read_only_ignored'],
    ['read-only-refused-400'],
  ),
  judged(
    'users.patch.keeps-unsent',
    'PATCH: only the fields to change; unsent fields stay unchanged',
    I('Method semantics'),
    ['patch_keeps_fields'],
    ['patch-resets-unsent'],
  ),
  split(
    'users.patch.answers-user',
    'PATCH /users/{id}: any subset of name, email, age; 200 with the user',
    USERS,
    [
      clause(
        'same-user',
        "the 200 answers the user of the path: its id is the path's",
        ['resource_identity'],
        ['patch-answers-other-user'],
      ),
      clause(
        'sent-values',
        'the 200 answers the user as changed: it holds the values sent',
        ['resource_identity'],
        ['patch-answers-old-values'],
      ),
    ],
  ),
  judged(
    'users.patch.age-null',
    'PATCH with age: null clears it',
    USERS,
    ['patch_semantics'],
    ['patch-null-age-ignored'],
  ),
  split(
    'users.patch.empty',
    'PATCH {} is 200 with nothing written (ETag unchanged)',
    C('Precise rules / Requests'),
    [
      clause('answers-200', 'PATCH {} answers 200', ['patch_semantics'], ['empty-patch-400']),
      clause(
        'nothing-written',
        'PATCH {} writes nothing: every property reads back as before',
        ['patch_semantics'],
        ['empty-patch-clears-age'],
      ),
      clause(
        'etag-unchanged',
        'PATCH {} leaves the ETag of the resource as it was (nothing was written)',
        ['patch_semantics'],
        ['empty-patch-new-etag'],
      ),
    ],
  ),
  split(
    'users.patch.all-or-nothing',
    'a PATCH is judged on the state before it and applied all or nothing',
    C('Precise rules / Requests'),
    [
      clause(
        'all-or-nothing',
        'a PATCH refused for one property applies none of the others',
        ['patch_semantics'],
        ['patch-applies-valid-part'],
      ),
      clause(
        'state-before',
        'a PATCH is judged on the resource as it stood before it, not as the PATCH would leave it: an order PATCH moving PENDING to PAID and changing its product is accepted, both applied (x-apikit-writable-in, x-apikit-state-machine)',
        ['judged_on_state_before'],
        ['patch-judged-after'],
      ),
    ],
  ),
  split('users.delete.204-then-404', 'DELETE /users/{id}: 204; again: 404', USERS, [
    clause(
      'answers-204',
      'a DELETE answers 204, no body',
      ['status_code_conformance'],
      ['user-delete-answers-200'],
    ),
    clause('again-404', 'the same DELETE again: 404', ['delete_twice'], ['second-delete-204']),
  ]),
  judged(
    'users.delete.gone',
    'after DELETE the user is absent: GET answers 404',
    I('Errors'),
    ['use_after_free'],
    ['delete-does-not-delete', 'stale-read-after-delete', 'stale-cache-after-delete'],
  ),
  split(
    'users.delete.cascade',
    'DELETE of a user deletes their orders, their items, role links and refresh tokens',
    USERS,
    [
      clause(
        'orders',
        "the user's orders are gone (read through their links)",
        ['delete_cascade'],
        ['delete-keeps-orders'],
      ),
      clause(
        'items',
        "the items of the user's orders are gone (GET of an item: 404)",
        ['delete_cascade'],
        ['delete-keeps-order-items'],
      ),
      clause(
        'role-links',
        "the user's role links are gone: a user PUT-created at the id holds none of them",
        ['put_create_and_replace'],
        ['delete-keeps-role-links'],
      ),
      clause(
        'refresh-tokens',
        "the user's refresh tokens are refused (the USER account; only with --allow-destructive)",
        ['deleted_user_token'],
        ['delete-keeps-refresh-tokens'],
      ),
    ],
  ),
  moved(
    'users.activate.inactive',
    'POST /users/{id}/activate: INACTIVE -> ACTIVE, 200 with the user',
    USERS,
    'activate-inactive',
    'ACTIVE',
    'activate-ignored',
  ),
  judged(
    'users.activate.active-noop',
    'activate when already ACTIVE: 200, no change',
    USERS,
    ['state_transitions'],
    ['activate-active-409'],
  ),
  judged(
    'users.activate.blocked-409',
    'activate when BLOCKED: 409',
    USERS,
    ['state_transitions'],
    ['activate-blocked-200'],
  ),
  ...adminTransitions(),
  split(
    'users.status.not-patchable',
    'status is read-only: a PUT or PATCH does not move the user state machine',
    USERS,
    [
      clause(
        'put',
        'a status in a PUT body is ignored',
        ['read_only_ignored'],
        ['put-status-writable'],
      ),
      clause(
        'patch',
        'a status in a PATCH body is ignored',
        ['read_only_ignored'],
        ['user-status-writable'],
      ),
    ],
  ),
];
