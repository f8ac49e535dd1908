import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { TokenRejectedError, type TokenRejection } from '../core/domain/ports.js';
import { createJwtAccessTokenCodec, randomSigningSecret } from './jwt-access-token-codec.js';

const SECRET = 'a-signing-secret-that-is-long-enough-for-hs256';
const NOW = new Date('2030-01-01T00:00:00.000Z');
const IAT = NOW.getTime() / 1000;
const CLAIMS = { sub: '7', name: 'Ada', role: 'USER', iat: IAT, exp: IAT + 900 } as const;
const codec = createJwtAccessTokenCodec(SECRET);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs256 = (input: string) => createHmac('sha256', SECRET).update(input).digest('base64url');
const withHeader = (header: object, payload: object = CLAIMS) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${hs256(input)}`;
};

async function reason(token: string, now = NOW): Promise<TokenRejection> {
  const error: unknown = await codec.verify(token, now).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof TokenRejectedError)) throw new Error(`not refused: ${String(error)}`);
  return error.reason;
}

describe('JWT access token codec', () => {
  it('signs HS256 JWTs with iat and exp from the given time, and verifies them', async () => {
    const token = await codec.sign({ sub: '7', name: 'Ada', role: 'USER' }, 900, NOW);
    expect(jwt.decode(token, { complete: true })?.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(await codec.verify(token, NOW)).toEqual(CLAIMS);
  });

  it('refuses a secret shorter than 32 bytes, counting bytes, not characters', () => {
    expect(() => createJwtAccessTokenCodec('x'.repeat(31))).toThrow(/at least 32 bytes, got 31/);
    expect(() => createJwtAccessTokenCodec(new Uint8Array(31))).toThrow(RangeError);
    expect(() => createJwtAccessTokenCodec('')).toThrow(RangeError);
    expect(() => createJwtAccessTokenCodec('é'.repeat(16))).not.toThrow();
    expect(() => createJwtAccessTokenCodec(new Uint8Array(32))).not.toThrow();
  });

  it('makes random secrets of 48 bytes that the codec accepts', async () => {
    const secret = randomSigningSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(randomSigningSecret()).not.toBe(secret);
    const other = createJwtAccessTokenCodec(secret);
    const token = await other.sign({ sub: '1', name: 'a', role: 'ADMIN' }, 60, NOW);
    expect((await other.verify(token, NOW)).role).toBe('ADMIN');
    expect(await reason(token)).toBe('signature');
  });

  it('expires at exp, judged by the given time', async () => {
    const token = await codec.sign({ sub: '7', name: 'Ada', role: 'USER' }, 900, NOW);
    await expect(codec.verify(token, new Date(NOW.getTime() + 899_999))).resolves.toEqual(CLAIMS);
    expect(await reason(token, new Date(NOW.getTime() + 900_000))).toBe('expired');
  });

  it('refuses a token not valid yet', async () => {
    expect(await reason(jwt.sign({ ...CLAIMS, nbf: IAT + 60 }, SECRET))).toBe('not-yet-valid');
  });

  it('refuses every algorithm but HS256', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(await reason(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(CLAIMS)}.`)).toBe('algorithm');
    expect(await reason(`${b64({ alg: 'none' })}.${b64(CLAIMS)}.${hs256('x')}`)).toBe('algorithm');
    expect(await reason(jwt.sign(CLAIMS, SECRET, { algorithm: 'HS512' }))).toBe('algorithm');
    expect(await reason(jwt.sign(CLAIMS, SECRET, { algorithm: 'HS384' }))).toBe('algorithm');
    expect(await reason(jwt.sign(CLAIMS, privateKey, { algorithm: 'RS256' }))).toBe('algorithm');
    expect(await reason(withHeader({ alg: 'RS256', typ: 'JWT' }))).toBe('algorithm');
    expect(await reason(withHeader({ alg: 'hs256', typ: 'JWT' }))).toBe('algorithm');
  });

  it('refuses a wrong signature', async () => {
    const token = await codec.sign({ sub: '7', name: 'Ada', role: 'USER' }, 900, NOW);
    const [header, payload] = token.split('.');
    expect(await reason(`${header}.${payload}.${hs256('other input')}`)).toBe('signature');
    expect(await reason(`${header}.${b64({ ...CLAIMS, sub: '1' })}.${token.split('.')[2]}`)).toBe(
      'signature',
    );
    expect(await reason(`${header}.${payload}.`)).toBe('signature');
    expect(await reason(jwt.sign(CLAIMS, `${SECRET}-other`))).toBe('signature');
  });

  it('refuses malformed tokens and tokens without the required claims', async () => {
    const header = { alg: 'HS256', typ: 'JWT' };
    const { role: _role, ...noRole } = CLAIMS;
    const { exp: _exp, ...noExp } = CLAIMS;
    const cases = [
      '',
      'garbage',
      'a.b',
      'a.b.c.d',
      `${Buffer.from('not json').toString('base64url')}.${b64(CLAIMS)}.x`,
      `${b64('a string header')}.${b64(CLAIMS)}.x`,
      `${b64({ typ: 'JWT' })}.${b64(CLAIMS)}.x`,
      withHeader({ ...header, crit: ['exp'] }),
      withHeader(header, noRole),
      withHeader(header, noExp),
      withHeader(header, { ...CLAIMS, role: 'ROOT' }),
      withHeader(header, { ...CLAIMS, sub: 7 }),
      withHeader(header, { ...CLAIMS, sub: '' }),
      withHeader(header, { ...CLAIMS, name: null }),
      withHeader(header, { ...CLAIMS, iat: '1' }),
      withHeader(header, { ...CLAIMS, exp: IAT + 0.5 }),
    ];
    for (const token of cases) expect(await reason(token), token).toBe('malformed');
  });

  it('answers only the known claims', async () => {
    const token = withHeader({ alg: 'HS256', typ: 'JWT' }, { ...CLAIMS, admin: true });
    expect(await codec.verify(token, NOW)).toEqual(CLAIMS);
  });
});
