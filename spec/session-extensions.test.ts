import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { idAllocation, rolesDeclaration, sessionDeclaration } from './apikit-extensions.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';

const bare = (extra: Record<string, unknown> = {}) =>
  ({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    ...extra,
  }) as OpenAPIV3.Document;

describe('x-apikit-session, x-apikit-roles and x-apikit-ids', () => {
  it('reads what the contract declares', async () => {
    const spec = await loadSpec();
    expect(sessionDeclaration(spec)).toEqual({
      login: 'login',
      refresh: 'refreshToken',
      logout: 'logout',
      usernameCaseInsensitive: true,
      wrongCredentialsStatus: 401,
      bearerErrors: true,
      twoWaysStatus: 400,
      claims: {
        subject: 'getUser',
        username: 'email',
        fields: { sub: 'id', name: 'name' },
        role: { claim: 'role', holder: 'ADMIN', otherwise: 'USER' },
        lifetime: 'expiresIn',
      },
      suspension: {
        block: 'blockUser',
        unblock: 'unblockUser',
        loginStatus: 403,
        refusedStatus: 401,
      },
    });
    const roles = rolesDeclaration(spec)!;
    expect([roles.fixedCatalog, roles.readAtRequest]).toEqual([true, true]);
    expect(roles.protected).toEqual({
      role: 'ADMIN',
      operations: ['replaceUser', 'updateUser', 'deleteUser', 'activateUser'],
      status: 403,
    });
    expect(roles.invariants.map((i) => [i.role, i.rule, i.status])).toEqual([
      ['USER', 'permanent', 409],
      ['ADMIN', 'at-least-one', 409],
    ]);
    const ops = listOperations(spec);
    const ids = ops.filter((op) => idAllocation(op)).map((op) => op.operationId);
    expect(ids).toEqual(['createUser']);
    expect(idAllocation(ops.find((op) => op.operationId === 'createUser')!)).toEqual({
      field: 'id',
      increasing: true,
      putCreate: 'replaceUser',
    });
  });

  it('counts a missing or mistyped declaration as absent, and fills the defaults', () => {
    expect(sessionDeclaration(bare())).toBeUndefined();
    expect(sessionDeclaration(bare({ 'x-apikit-session': { refresh: 'r' } }))).toBeUndefined();
    expect(
      sessionDeclaration(bare({ 'x-apikit-session': { login: 'in', suspension: { block: 'b' } } })),
    ).toMatchObject({
      login: 'in',
      wrongCredentialsStatus: 401,
      bearerErrors: false,
      twoWaysStatus: undefined,
      claims: undefined,
      suspension: undefined,
    });
    expect(rolesDeclaration(bare({ 'x-apikit-roles': { list: 'l' } }))).toBeUndefined();
    const roles = rolesDeclaration(
      bare({
        'x-apikit-roles': {
          catalog: 'c',
          list: 'l',
          assign: 'a',
          remove: 'r',
          invariants: [{ role: 'X', rule: 'permanent' }, { role: 'Y', rule: 'sometimes' }, 'Z'],
        },
      }),
    );
    expect(roles?.invariants).toEqual([
      { role: 'X', rule: 'permanent', status: 409, operations: [] },
    ]);
    expect(
      idAllocation({ operation: { responses: {}, 'x-apikit-ids': { increasing: true } } as never }),
    ).toBeUndefined();
  });
});
