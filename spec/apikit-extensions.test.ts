import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import {
  APIKIT_EXTENSIONS,
  declaredValidation,
  isDestructive,
  requiredRole,
  stateMachine,
  uniqueFields,
} from './apikit-extensions.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';

/** Every `x-apikit-*` key of a value with the JSON Pointer of the object holding it. */
function extensionsIn(value: unknown, at = ''): { at: string; name: string }[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(key.startsWith('x-apikit') ? [{ at, name: key }] : []),
    ...extensionsIn(child, `${at}/${key}`),
  ]);
}

const withExtensions = (extensions: Record<string, unknown>) => ({
  operation: { responses: {}, ...extensions } as OpenAPIV3.OperationObject,
});

describe('the x-apikit extensions', () => {
  it('the contract uses only the extensions read in apikit-extensions.ts', async () => {
    const names = new Set(extensionsIn(await loadSpec()).map((found) => found.name));
    expect(
      [...names].filter((name) => !(APIKIT_EXTENSIONS as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it('reads the role and destructiveness of the contract operations', async () => {
    const ops = listOperations(await loadSpec());
    const byId = new Map(ops.map((op) => [op.operationId, op]));
    expect(requiredRole(byId.get('resetData')!)).toBe('ADMIN');
    expect(requiredRole(byId.get('getUser')!)).toBeUndefined();
    expect(ops.filter(isDestructive).map((op) => op.operationId)).toEqual(['resetData']);
  });

  it('reads the conventions the contract declares, and none of a description without them', async () => {
    expect(declaredValidation(await loadSpec())).toEqual({
      rejectUnknownQueryParameters: true,
      plainDecimalQueryIntegers: true,
      rejectLoneSurrogates: true,
      ignoreReadOnlyProperties: true,
      commaSeparatedArraysRepeatable: true,
    });
    const bare = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(Object.values(declaredValidation(bare))).toEqual([false, false, false, false, false]);
  });

  it('reads the uniqueness rules of the contract operations', async () => {
    const ops = listOperations(await loadSpec());
    const unique = ops.filter((op) => uniqueFields(op) !== undefined).map((op) => op.operationId);
    expect(unique.sort()).toEqual(['createUser', 'replaceUser', 'updateUser']);
    expect(uniqueFields(ops.find((op) => op.operationId === 'createUser')!)).toEqual({
      fields: ['email'],
      caseInsensitive: true,
      conflictStatus: 409,
    });
    expect(uniqueFields(withExtensions({ 'x-apikit-unique': { fields: ['sku'] } }))).toEqual({
      fields: ['sku'],
      caseInsensitive: false,
      conflictStatus: 409,
    });
  });

  it('reads the user and order state machines of the contract', async () => {
    const ops = listOperations(await loadSpec());
    const declared = ops.filter((op) => stateMachine(op) !== undefined).map((op) => op.operationId);
    expect(declared).toEqual(['createUser', 'createUserOrder']);
    const users = stateMachine(ops.find((op) => op.operationId === 'createUser')!)!;
    expect(users).toMatchObject({ field: 'status', initial: 'INACTIVE', sameState: 'noop' });
    expect(users.states).toEqual(['INACTIVE', 'ACTIVE', 'BLOCKED']);
    expect(users.transitions).toContainEqual({
      operation: 'unblockUser',
      from: ['ACTIVE'],
      to: 'ACTIVE',
    });
    const machine = stateMachine(ops.find((op) => op.operationId === 'createUserOrder')!)!;
    expect(machine).toMatchObject({
      field: 'status',
      initial: 'PENDING',
      refusalStatus: 409,
      sameState: 'noop',
    });
    expect(machine.states).toEqual(['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED']);
    expect(machine.transitions).toContainEqual({
      operation: 'cancelOrder',
      from: ['PENDING', 'PAID'],
      to: 'CANCELLED',
    });
    const minimal = stateMachine(
      withExtensions({
        'x-apikit-state-machine': {
          field: 'phase',
          states: ['A', 'B'],
          transitions: [
            { operation: 'finish', from: 'A', to: 'B' },
            { operation: 'x', to: 'Z' },
          ],
        },
      }),
    );
    expect(minimal).toEqual({
      field: 'phase',
      states: ['A', 'B'],
      initial: undefined,
      transitions: [{ operation: 'finish', from: ['A'], to: 'B' }],
      refusalStatus: 409,
      sameState: undefined,
    });
  });

  it('counts a value of the wrong type as absent', () => {
    expect(stateMachine(withExtensions({ 'x-apikit-state-machine': 'orders' }))).toBeUndefined();
    expect(
      stateMachine(
        withExtensions({ 'x-apikit-state-machine': { field: 'status', states: ['A'] } }),
      ),
    ).toBeUndefined();
    expect(
      uniqueFields(withExtensions({ 'x-apikit-unique': { fields: 'email' } })),
    ).toBeUndefined();
    expect(uniqueFields(withExtensions({ 'x-apikit-unique': true }))).toBeUndefined();
    expect(requiredRole(withExtensions({ 'x-apikit-role': 42 }))).toBeUndefined();
    expect(isDestructive(withExtensions({ 'x-apikit-destructive': 'yes' }))).toBe(false);
    const odd = { 'x-apikit-validation': 'all' } as unknown as OpenAPIV3.Document;
    expect(declaredValidation(odd).rejectLoneSurrogates).toBe(false);
  });
});
