import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { badCredentials, jwtClaims, signHs256, unsignedJwt } from './bad-credentials.js';

const SECRET = Buffer.from('the-real-secret-the-real-secret-0123');
const NOW = Date.UTC(2030, 0, 1);
const userToken = signHs256(
  { sub: '2', role: 'USER', iat: NOW / 1000, exp: NOW / 1000 + 900 },
  SECRET,
);

const verifies = (token: string, key: Buffer) => {
  const [h, p, s] = token.split('.');
  return createHmac('sha256', key).update(`${h}.${p}`).digest('base64url') === s;
};
const header = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

describe('badCredentials', () => {
  const bad = badCredentials(userToken, NOW);
  const token = (name: string) =>
    bad.find((b) => b.name.startsWith(name))!.authorization!.replace(/^Bearer /, '');

  it('covers none, malformed, another key, alg none and expired', () => {
    expect(bad.map((b) => [b.name, b.presented])).toEqual([
      ['no Authorization', false],
      ['malformed token', true],
      ['token signed with another key', true],
      ['alg none token', true],
      ['expired token (signed with another key)', true],
    ]);
    expect(bad[0]!.authorization).toBeNull();
  });

  it('keeps the user claims but not the signature', () => {
    const forged = token('token signed with another key');
    expect(jwtClaims(forged)).toEqual(jwtClaims(userToken));
    expect(verifies(userToken, SECRET)).toBe(true);
    expect(verifies(forged, SECRET)).toBe(false);
  });

  it('makes an unsigned alg none token', () => {
    const none = token('alg none');
    expect(header(none)).toEqual({ alg: 'none', typ: 'JWT' });
    expect(none.endsWith('.')).toBe(true);
    expect(none).toBe(unsignedJwt(jwtClaims(userToken)!));
  });

  it('makes an expired token', () => {
    expect(jwtClaims(token('expired'))?.exp).toBeLessThan(NOW / 1000);
  });

  it('invents claims when there is no user token', () => {
    const made = badCredentials(undefined, NOW).find((b) => b.name === 'alg none token')!;
    expect(jwtClaims(made.authorization!.slice(7))).toMatchObject({ sub: '1' });
  });
});
