import { C, I, judged, noCheck, outside, type Rule } from './rule.js';

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
  judged(
    'roles.assign-needs-admin',
    'PUT and DELETE /users/{id}/roles/{roleId} need ADMIN (403 otherwise)',
    ROLES,
    ['admin_role_required'],
    ['role-link-needs-no-admin'],
  ),
  judged(
    'roles.admin-user-needs-admin',
    'changing or deleting a user who holds ADMIN needs ADMIN',
    PRECISE,
    ['role_invariants'],
    ['admin-changeable-by-user'],
    'a USER sends the admin account a PATCH of nothing and a PUT of its own values, both with a stale If-Match; a DELETE only with --allow-destructive',
  ),
  noCheck(
    'roles.catalog',
    'a fixed catalog at GET /roles: 1 USER, 2 ADMIN',
    ROLES,
    'the schema allows any role; nothing compares the catalog',
  ),
  judged(
    'roles.assign.idempotent',
    'PUT /users/{id}/roles/{roleId}: 204, idempotent',
    ROLES,
    ['put_idempotent', 'put_delete_cycle'],
    ['role-assign-twice-409'],
  ),
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
  judged(
    'roles.unknown-404',
    'unknown user or role: 404',
    ROLES,
    ['absent_resource'],
    ['unknown-role-400'],
  ),
  judged(
    'roles.remove-user-409',
    'removing the USER role is 409',
    PRECISE,
    ['role_invariants'],
    ['user-role-removable'],
    'on a user the run created',
  ),
  judged(
    'roles.last-admin-409',
    'deleting, demoting or blocking the last ADMIN is 409 (at least one ADMIN)',
    PRECISE,
    ['role_holders'],
    ['last-admin-demotable'],
    "with --allow-destructive and only where the run proves the admin account is the only ADMIN (every user's roles read): removing ADMIN from it; blocking or deleting the last ADMIN is not tried (nothing could undo it on a target that breaks the rule)",
  ),
  judged(
    'roles.link-no-get',
    'a role link has no representation (GET is 405)',
    PRECISE,
    ['unsupported_method'],
    ['role-link-answers-get'],
  ),
  judged(
    'ids.server-assigned-increasing',
    'identifiers are positive integers assigned by the server, increasing, never reused',
    C('Users'),
    ['id_allocation'],
    ['deleted-id-reused'],
    'two creations, a delete of the newest, a third creation (x-apikit-ids)',
  ),
  judged(
    'ids.counter-past-put',
    'PUT-create at id X moves the counter past X; deletes and /admin/reset never move it back',
    IDS,
    ['id_allocation'],
    ['counter-ignores-put-create'],
    'a PUT-create past the newest id (If-None-Match: *), then a creation; /admin/reset is not tried',
  ),
  judged(
    'ids.put-create-deleted',
    'a client may PUT-create at any absent id, a deleted one included',
    IDS,
    ['put_create_and_replace'],
    ['put-create-answers-200'],
  ),
  noCheck(
    'catalog.categories',
    'categories are a fixed catalog (GET /categories, GET /categories/{id}: id, name)',
    C('Orders, order items, categories'),
    'the schema judges the shape; nothing compares the catalog between calls',
  ),
  judged(
    'ids.path-positive-integer',
    'path ids must be positive integers up to 2^53-1, else 400 (/users/abc, /users/1.json)',
    IDS,
    ['negative_data_rejection'],
    ['path-id-parse-int'],
  ),
  noCheck(
    'admin.reset',
    'POST /admin/reset restores the demo data, keeps the id counters, clears refresh tokens and idempotency records; 204',
    C('Admin'),
    'the runner never resets a target it does not own (x-apikit-destructive)',
  ),
  outside(
    'store.atomic-writes',
    'a write is acknowledged only after the file is replaced atomically; a killed process never tears it',
    C('The store'),
    'needs killing the server process and reading its file',
  ),
  noCheck(
    'store.serialized-writes',
    "writes are serialized: concurrent requests never lose each other's updates",
    C('The store'),
    'no check sends concurrent writes and reads back',
  ),
  outside(
    'store.demo-data',
    'the demo data set is deterministic: users in all statuses, orders in every status, both roles, two logins',
    C('The store'),
    'the runner judges any target, including one that holds other data',
  ),
];
