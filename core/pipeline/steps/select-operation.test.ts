import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { selectOperation } from './select-operation.js';

const { env, admin, user, reaching } = stepHarness();

describe('selectOperation', () => {
  it('is 501 for a method HTTP does not know', async () => {
    const x = await reaching(selectOperation, 'BREW', '/api/v1/users');
    expect(() => selectOperation(x, env)).toThrow(expect.objectContaining({ status: 501 }));
  });

  it('is 405 with Allow for a method the route does not take', async () => {
    const x = await reaching(selectOperation, 'DELETE', '/api/v1/users');
    expect(() => selectOperation(x, env)).toThrow(
      expect.objectContaining({ status: 405, headers: { Allow: 'GET, HEAD, POST, OPTIONS' } }),
    );
  });

  it("selects HEAD as GET's operation, with its handler and validators", async () => {
    const x = await reaching(selectOperation, 'HEAD', '/api/v1/users/7');
    await selectOperation(x, env);
    expect(x.operationId).toBe('getUser');
    expect(x.selected?.operation.operationId).toBe('getUser');
    expect(typeof x.selected?.handler.run).toBe('function');
  });

  it('awaits nothing once the operation was compiled', async () => {
    await selectOperation(await reaching(selectOperation, 'GET', '/api/v1/roles'), env);
    const again = await reaching(selectOperation, 'GET', '/api/v1/roles');
    expect(selectOperation(again, env)).toBeUndefined();
    expect(again.selected).toBeDefined();
  });
});
