/**
 * Ids of the fixed role catalog, in a file of their own so that the role service, the
 * last-ADMIN rule and the demo data share them without importing one another.
 *
 * @example
 * user.roleIds.includes(ADMIN_ROLE_ID);
 */
export const USER_ROLE_ID = 1;
export const ADMIN_ROLE_ID = 2;
