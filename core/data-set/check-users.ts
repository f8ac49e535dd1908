import type { RoleName } from '../domain/dataset.js';
import type { CheckedDataSet, DataSetRun } from './checked-data-set.js';
import {
  datesInOrder,
  defined,
  duplicate,
  isObject,
  kind,
  schemaProblems,
  time,
  unknownFields,
} from './record-checks.js';

const USER_FIELDS = new Set([
  'id',
  'name',
  'email',
  'age',
  'status',
  'roles',
  'password',
  'createdAt',
  'updatedAt',
]);

/**
 * Checks the users (schema, unknown fields, unique ids and emails, roles, password) and the
 * last-ADMIN rule; pushes each user that passed to `run.data.users`.
 */
export function checkUsers(run: DataSetRun, rawUsers: unknown[], usersGiven: boolean): void {
  const { problem } = run;
  const userIds = new Map<number, number>();
  const emails = new Map<string, number>();
  rawUsers.forEach((raw, index) => {
    const at = `/users/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    unknownFields(raw, USER_FIELDS, at, problem);
    const before = run.problems.length;
    const createdAt = time(raw.createdAt, run.nowIso);
    const dto = defined({
      id: raw.id,
      name: raw.name,
      email: raw.email,
      age: raw.age === undefined ? null : raw.age,
      status: raw.status ?? 'ACTIVE',
      createdAt,
      updatedAt: time(raw.updatedAt, createdAt),
    });
    schemaProblems(run.validators.user, dto, at, problem);
    const roles = raw.roles === undefined ? ['USER'] : raw.roles;
    schemaProblems(run.validators.roles, roles, `${at}/roles`, problem);
    if (raw.password !== undefined)
      schemaProblems(run.validators.password, raw.password, `${at}/password`, problem);
    datesInOrder(dto, at, problem);
    if (typeof raw.id === 'number') duplicate(userIds, raw.id, index, 'users', at, problem);
    if (typeof raw.email === 'string') {
      const key = raw.email.toLowerCase();
      const first = emails.get(key);
      if (first !== undefined) {
        problem(
          `${at}/email`,
          `${raw.email} is also the email of /users/${first} (emails are unique, compared case-insensitively)`,
        );
      } else emails.set(key, index);
    }
    if (run.problems.length > before) return;
    const held = new Set(roles as RoleName[]);
    held.add('USER'); // every user holds USER
    run.data.users.push({
      ...(dto as Omit<CheckedDataSet['users'][number], 'roles' | 'password'>),
      roles: (['USER', 'ADMIN'] as const).filter((role) => held.has(role)),
      password: (raw.password as string | undefined) ?? null,
    });
  });

  if (
    rawUsers.length > 0 &&
    !rawUsers.some(
      (raw) =>
        isObject(raw) &&
        Array.isArray(raw.roles) &&
        raw.roles.includes('ADMIN') &&
        (raw.status ?? 'ACTIVE') !== 'BLOCKED',
    )
  ) {
    problem(
      '/users',
      'holds no ADMIN who is not BLOCKED: the contract keeps at least one (give a user "roles": ["ADMIN"])',
    );
  }
  if (rawUsers.length === 0 && usersGiven) {
    problem('/users', 'is empty: a data set needs at least one user, an ADMIN');
  }
}
