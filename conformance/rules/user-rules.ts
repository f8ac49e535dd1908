import { C, I, judged, noCheck, type Rule } from './rule.js';

const USERS = C('Users');
const PRECISE = C('Precise rules / Users, orders, roles');

const USER_STATES = ['INACTIVE', 'ACTIVE', 'BLOCKED'] as const;

/** POST /admin/users/{id}/block and /unblock from every status of the user, and their faults. */
function adminTransitions(): Rule[] {
  const block: Record<string, [string, string]> = {
    INACTIVE: ['-> BLOCKED, 200', 'block-inactive-ignored'],
    ACTIVE: ['-> BLOCKED, 200', 'block-active-ignored'],
    BLOCKED: ['200, no change', 'block-blocked-409'],
  };
  const unblock: Record<string, [string, string]> = {
    BLOCKED: ['-> INACTIVE, 200', 'unblock-to-active'],
    INACTIVE: ['200, no change', 'unblock-inactive-409'],
    ACTIVE: ['200, no change (unblock never demotes an ACTIVE user)', 'unblock-demotes-active'],
  };
  return USER_STATES.flatMap((from) => [
    judged(
      `users.block.from-${from.toLowerCase()}`,
      `POST /admin/users/{id}/block when ${from}: ${block[from]![0]}`,
      C('Admin'),
      ['state_transitions'],
      [block[from]![1]],
    ),
    judged(
      `users.unblock.from-${from.toLowerCase()}`,
      `POST /admin/users/{id}/unblock when ${from}: ${unblock[from]![0]}`,
      C('Admin'),
      ['state_transitions'],
      [unblock[from]![1]],
    ),
  ]);
}

/** Users: creation, validation, uniqueness, replace and update, delete, the user state machine. */
export const userRules: Rule[] = [
  judged(
    'users.create.201-location',
    'POST /users: 201, body UserDto, header Location with the path of the new user',
    I('Endpoints / Users'),
    ['status_code_conformance', 'location_resolves', 'ensure_resource_availability'],
    ['create-answers-200', 'location-dropped', 'new-user-not-readable'],
  ),
  judged(
    'users.create.validation',
    'name 1-100 characters, email (format email), optional age (minimum 18); unknown properties: 400',
    USERS,
    ['negative_data_rejection'],
    ['invalid-data-accepted'],
  ),
  judged(
    'users.create.valid-accepted',
    'a name of 1-100 Unicode code points, stored exactly as sent, is accepted',
    C('Precise rules / Requests'),
    ['positive_data_acceptance'],
    ['long-names-rejected'],
  ),
  judged(
    'users.create.age-optional',
    'age is optional (null when not sent)',
    USERS,
    ['not_a_server_error', 'positive_data_acceptance'],
    ['create-without-age-crashes'],
  ),
  judged(
    'users.null-name-email',
    'name: null or email: null is 400',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['null-name-as-absent'],
  ),
  judged(
    'users.lone-surrogate',
    'lone surrogates in names are 400',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['lone-surrogate-replaced'],
  ),
  judged(
    'users.email.max-length',
    'emails: at most 254 characters',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['long-email-truncated'],
  ),
  judged(
    'users.stored-as-sent',
    'names and emails are stored exactly as sent (emails compared lower-cased)',
    C('Precise rules / Requests'),
    ['fuzz_read_back'],
    ['names-title-cased'],
    'only the fuzz phase compares what was sent with what reads back (location_resolves compares the GET with the 201 body), so the fault runs with --fuzz',
  ),
  judged(
    'users.dto.fields',
    'UserDto: id, name, email, age (or null: always present), status, createdAt, updatedAt; nothing else',
    USERS,
    ['response_schema_conformance'],
    ['createdAt-missing', 'password-hash-leaked'],
  ),
  judged(
    'users.email.unique',
    'emails are unique, compared case-insensitively: 409 on a clash (create, replace, update)',
    USERS,
    ['unique_fields'],
    ['duplicate-email-other-case', 'duplicate-email-422'],
  ),
  judged(
    'users.create.starts-inactive',
    'a new user starts INACTIVE',
    USERS,
    ['state_transitions'],
    ['new-user-active'],
  ),
  judged(
    'users.create.holds-user',
    'every new user holds USER',
    C('Roles'),
    ['initial_items'],
    ['new-user-without-role'],
  ),
  judged(
    'users.put.replace',
    'PUT /users/{id} replaces name, email and age (age not sent -> null)',
    USERS,
    ['put_idempotent'],
    ['put-keeps-unsent'],
  ),
  judged(
    'users.put.keeps-status-created',
    'PUT /users/{id}: status and createdAt stay',
    PRECISE,
    ['read_only_ignored'],
    ['put-resets-status', 'put-renews-created-at'],
  ),
  judged(
    'users.put.create-at-absent',
    'PUT to an absent id creates the user there: 201 with Location',
    USERS,
    ['put_create_and_replace'],
    ['put-create-answers-200'],
  ),
  judged(
    'users.put.create-same-as-post',
    'PUT-create has the same effects as POST (INACTIVE, holds USER, no password)',
    PRECISE,
    ['put_create_and_replace'],
    ['put-create-active'],
    "judged: the state machine's initial state; the roles and the password of the user made are not compared",
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
  judged(
    'users.patch.age-null',
    'PATCH with age: null clears it',
    USERS,
    ['patch_semantics'],
    ['patch-null-age-ignored'],
  ),
  judged(
    'users.patch.empty',
    'PATCH {} is 200 with nothing written (ETag unchanged)',
    C('Precise rules / Requests'),
    ['patch_semantics'],
    ['empty-patch-400'],
    'the stamps of the last change and the ETag are not compared: a server may stamp an empty write',
  ),
  judged(
    'users.patch.all-or-nothing',
    'a PATCH is judged on the state before it and applied all or nothing',
    C('Precise rules / Requests'),
    ['patch_semantics'],
    ['patch-applies-valid-part'],
  ),
  judged(
    'users.delete.204-then-404',
    'DELETE /users/{id}: 204; again: 404',
    USERS,
    ['delete_twice'],
    ['second-delete-204'],
  ),
  judged(
    'users.delete.gone',
    'after DELETE the user is absent: GET answers 404',
    I('Errors'),
    ['use_after_free'],
    ['delete-does-not-delete', 'stale-read-after-delete', 'stale-cache-after-delete'],
  ),
  judged(
    'users.delete.cascade',
    'DELETE of a user deletes their orders, their items, role links and refresh tokens',
    USERS,
    ['delete_cascade'],
    ['delete-keeps-orders'],
    'judged: the orders, read through their links; items, role links and refresh tokens are not read',
  ),
  judged(
    'users.activate.inactive',
    'POST /users/{id}/activate: INACTIVE -> ACTIVE, 200 with the user',
    USERS,
    ['state_transitions'],
    ['activate-ignored'],
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
  judged(
    'users.status.not-patchable',
    'status is read-only: a PUT or PATCH does not move the user state machine',
    USERS,
    ['read_only_ignored'],
    ['user-status-writable', 'put-resets-status'],
  ),
];
