import { C, clause, I, judged, noCheck, outside, outsideClause, split, type Rule } from './rule.js';

const ROLES = C('Roles');
const PRECISE = C('Precise rules / Users, orders, roles');
const IDS = C('Precise rules / Identifiers and ordering');

/** Roles and their invariants, admin operations, id allocation and the store. */
export const roleRules: Rule[] = [
  judged(
    'roles.admin-paths',
    '/admin/** needs an authenticated user with the role ADMIN (403 otherwise)',
    I('Authentication'),
    ['admin_role_required'],
    ['role-not-enforced'],
  ),
  split(
    'roles.assign-needs-admin',
    'PUT and DELETE /users/{id}/roles/{roleId} need ADMIN (403 otherwise)',
    ROLES,
    [
      clause(
        'put',
        'assigning a role needs ADMIN',
        ['admin_role_required'],
        ['role-link-needs-no-admin'],
      ),
      clause(
        'delete',
        'removing a role needs ADMIN',
        ['admin_role_required'],
        ['role-removal-needs-no-admin'],
      ),
    ],
  ),
  split(
    'roles.admin-user-needs-admin',
    'changing or deleting a user who holds ADMIN needs ADMIN',
    PRECISE,
    [
      clause(
        'patch',
        'a PATCH of the admin account by a USER is 403 (a PATCH of nothing, stale If-Match)',
        ['role_invariants'],
        ['admin-changeable-by-user'],
      ),
      clause(
        'put',
        'a PUT of the admin account by a USER is 403 (its own values, stale If-Match)',
        ['role_invariants'],
        ['admin-replaceable-by-user'],
      ),
      clause(
        'delete',
        'a DELETE of the admin account by a USER is 403 (stale If-Match; only with --allow-destructive)',
        ['role_invariants'],
        ['admin-deletable-by-user'],
      ),
    ],
  ),
  split('roles.catalog', 'a fixed catalog at GET /roles: 1 USER, 2 ADMIN', ROLES, [
    clause(
      'documented',
      "GET /roles answers the first example of the catalog's 200 answer (x-apikit-roles fixedCatalog)",
      ['role_invariants'],
      ['role-catalog-renumbered'],
    ),
    clause(
      'every-answer',
      'every 200 GET of the catalog in the run, whatever it was asked with, is that example',
      ['fixed_catalog_answers'],
      ['catalog-one-role-less'],
    ),
  ]),
  split('roles.assign.idempotent', 'PUT /users/{id}/roles/{roleId}: 204, idempotent', ROLES, [
    clause(
      'answers-204',
      'assigning a role answers 204, no body',
      ['status_code_conformance'],
      ['role-assign-answers-200'],
    ),
    clause(
      'repeat-204',
      'assigning a role the user holds answers 204 again',
      ['put_idempotent', 'put_delete_cycle'],
      ['role-assign-twice-409'],
    ),
    clause(
      'role-held',
      'the user holds the role afterwards',
      ['put_delete_cycle'],
      ['role-assign-not-stored'],
    ),
  ]),
  judged(
    'roles.remove.not-held-404',
    'DELETE of a role the user does not hold: 404',
    ROLES,
    ['put_delete_cycle'],
    ['role-removal-not-held-204'],
  ),
  judged(
    'roles.remove.held-204',
    'DELETE of a role the user holds: 204',
    ROLES,
    ['put_delete_cycle'],
    ['role-removal-not-found'],
  ),
  split('roles.unknown-404', 'unknown user or role: 404', ROLES, [
    clause(
      'unknown-role',
      'a role link naming an unknown role: 404',
      ['absent_resource'],
      ['unknown-role-400'],
    ),
    clause(
      'unknown-user',
      'a role link naming an unknown user: 404',
      ['absent_parent'],
      ['unknown-user-role-link-400'],
    ),
  ]),
  judged(
    'roles.remove-user-409',
    'removing the USER role is 409',
    PRECISE,
    ['role_invariants'],
    ['user-role-removable'],
    'on a user the run created',
  ),
  split(
    'roles.last-admin-409',
    'deleting, demoting or blocking the last ADMIN is 409 (at least one ADMIN)',
    PRECISE,
    [
      clause(
        'demote',
        'removing ADMIN from the last holder is 409, the role still held (with --allow-destructive, where the run proves the admin account is the only ADMIN)',
        ['role_holders'],
        ['last-admin-demotable'],
      ),
      outsideClause(
        'block',
        'blocking the last ADMIN is 409',
        'not tried, even with --allow-destructive: the probe needs a last ADMIN, either the given admin account or an account the run made ADMIN after demoting the given one; on a target that breaks it that account is blocked, its tokens refused (auth.token.blocked-user), and no request can undo it: unblocking, assigning ADMIN and /admin/reset all need an ADMIN (x-apikit-role), so the run would leave the target without one for good',
      ),
      outsideClause(
        'delete',
        'deleting the last ADMIN is 409',
        'not tried, even with --allow-destructive: as for #block, the last ADMIN would be the given account or one the run made ADMIN after demoting it; on a target that breaks it that account is gone, its tokens refused (auth.token.deleted-user), and assigning ADMIN and /admin/reset both need an ADMIN (x-apikit-role), so the run would leave the target without one for good',
      ),
    ],
  ),
  judged(
    'roles.link-no-get',
    'a role link has no representation (GET is 405)',
    PRECISE,
    ['unsupported_method'],
    ['role-link-answers-get'],
  ),
  split(
    'ids.server-assigned-increasing',
    'identifiers are positive integers assigned by the server, increasing, never reused',
    C('Users'),
    [
      clause(
        'positive-integer',
        'an assigned id is a positive integer (the schema of the id: minimum 1)',
        ['response_schema_conformance'],
        ['created-id-zero'],
      ),
      clause(
        'increasing',
        'a second creation gets a greater id than the first (x-apikit-ids increasing)',
        ['id_allocation'],
        ['ids-count-down'],
      ),
      clause(
        'never-reused',
        'a creation after deleting the newest gets a greater id still, never the freed one',
        ['id_allocation'],
        ['deleted-id-reused'],
      ),
    ],
  ),
  split(
    'ids.counter-past-put',
    'PUT-create at id X moves the counter past X; deletes and /admin/reset never move it back',
    IDS,
    [
      clause(
        'past-put',
        'after a PUT-create past the newest id (If-None-Match: *), the next creation gets a greater id',
        ['id_allocation'],
        ['counter-ignores-put-create'],
      ),
      clause(
        'deletes-keep',
        'a delete of an id below the newest never moves the counter back either: after one, the next creation gets an id above the newest',
        ['id_allocation'],
        ['older-deleted-id-reused'],
      ),
      clause(
        'reset-keeps',
        '/admin/reset never moves it back below a PUT-created id: a creation after the reset gets an id past it (only with --allow-destructive)',
        ['admin_reset'],
        ['reset-forgets-put-create'],
      ),
    ],
  ),
  judged(
    'ids.put-create-deleted',
    'a client may PUT-create at any absent id, a deleted one included',
    IDS,
    ['put_create_and_replace'],
    ['put-create-deleted-id-refused'],
  ),
  judged(
    'catalog.categories',
    'categories are a fixed catalog (GET /categories, GET /categories/{id}: id, name)',
    C('Orders, order items, categories'),
    ['fixed_catalog'],
    ['category-renamed'],
    "the list equals the first example of its 200 answer, each entry's GET answers it (x-apikit-fixed-catalog)",
  ),
  judged(
    'ids.path-positive-integer',
    'path ids must be positive integers up to 2^53-1, else 400 (/users/abc, /users/1.json)',
    IDS,
    ['negative_data_rejection'],
    ['path-id-parse-int'],
  ),
  split(
    'admin.reset',
    'POST /admin/reset restores the demo data, keeps the id counters, clears refresh tokens and idempotency records; 204',
    C('Admin'),
    [
      clause(
        'answers-204',
        'the reset answers 204',
        ['status_code_conformance'],
        ['reset-answers-200'],
      ),
      clause(
        'made-gone',
        'a user made before the reset is gone (404); only with --allow-destructive',
        ['admin_reset'],
        ['reset-ignored'],
      ),
      clause(
        'refresh-cleared',
        'a refresh token issued before the reset is refused',
        ['admin_reset'],
        ['reset-keeps-refresh-tokens'],
      ),
      clause(
        'ids-kept',
        'the next user made gets an id past every id assigned before',
        ['admin_reset'],
        ['reset-rewinds-ids'],
      ),
      clause(
        'idempotency-cleared',
        'an Idempotency-Key sent before the reset is forgotten: a create under it (another body) is carried out',
        ['admin_reset'],
        ['reset-keeps-idempotency-keys'],
      ),
      outsideClause(
        'demo-data-back',
        'what the store holds afterwards is the demo data set',
        'the runner judges any target and does not know its initial data set (a target may be seeded with data of its own, --data); what the run made being gone is judged',
      ),
    ],
  ),
  outside(
    'store.atomic-writes',
    'a write is acknowledged only after the file is replaced atomically; a killed process never tears it',
    C('The store'),
    'needs killing the server process and reading its file',
  ),
  judged(
    'store.serialized-writes',
    "writes are serialized: concurrent requests never lose each other's updates",
    C('The store'),
    ['serialized_writes'],
    ['patch-lost-update'],
    'PATCHes of different properties of one resource sent at once (x-apikit-service.serializedWrites)',
  ),
  outside(
    'store.demo-data',
    'the demo data set is deterministic: users in all statuses, orders in every status, both roles, two logins',
    C('The store'),
    'the runner judges any target, including one that holds other data',
  ),
];
