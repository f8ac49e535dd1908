import { describe, expect, it, vi } from 'vitest';
import type { Dataset, UserRecord } from '../core/domain/dataset.js';
import type { AccessTokenCodec } from '../core/domain/ports.js';
import { actingAdminCodec } from './acting-admin-codec.js';

const user = (id: number, roleIds: number[], status: UserRecord['status'] = 'ACTIVE') =>
  ({ id, name: `User ${id}`, email: `u${id}@example.com`, roleIds, status }) as UserRecord;

function setup(users: UserRecord[]) {
  const data = { users: Object.fromEntries(users.map((u) => [String(u.id), u])) } as Dataset;
  const inner: AccessTokenCodec = {
    sign: vi.fn(async () => 'signed'),
    verify: vi.fn(async () => ({ sub: '9', name: 'Real', role: 'USER' as const, iat: 1, exp: 2 })),
  };
  return { data, inner, codec: actingAdminCodec(inner, 'acting-token', () => data, 900) };
}

describe('actingAdminCodec (auth off)', () => {
  it('resolves its token to the lowest-id ADMIN who is not BLOCKED, signing nothing', async () => {
    const { codec, inner } = setup([user(1, [1]), user(3, [1, 2], 'BLOCKED'), user(5, [1, 2])]);
    const now = new Date('2026-03-01T00:00:00Z');
    for (let i = 0; i < 3; i++) {
      expect(await codec.verify('acting-token', now)).toEqual({
        sub: '5',
        name: 'User 5',
        role: 'ADMIN',
        iat: 1772323200,
        exp: 1772323200 + 900,
      });
    }
    expect(inner.sign).not.toHaveBeenCalled();
    expect(inner.verify).not.toHaveBeenCalled();
  });

  it('follows the data: a blocked or removed admin hands over to the next one', async () => {
    const { codec, data } = setup([user(2, [1, 2]), user(4, [1, 2])]);
    const now = new Date();
    expect((await codec.verify('acting-token', now)).sub).toBe('2');
    data.users['2']!.status = 'BLOCKED';
    expect((await codec.verify('acting-token', now)).sub).toBe('4');
    delete data.users['4'];
    await expect(codec.verify('acting-token', now)).rejects.toThrow(/no ADMIN to act as/);
  });

  it('passes every other token to the real codec', async () => {
    const { codec, inner } = setup([user(1, [1, 2])]);
    expect((await codec.verify('a.real.jwt', new Date())).sub).toBe('9');
    expect(inner.verify).toHaveBeenCalledOnce();
  });
});
