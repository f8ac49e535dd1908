import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  TokenRejectedError,
  type AccessTokenCodec,
  type TokenRejection,
} from '../core/domain/ports.js';
import { createJwtAccessTokenCodec } from '../node-runtime/jwt-access-token-codec.js';
import { createHs256AccessTokenCodec } from './hs256-access-token-codec.js';

// The mocks' own HS256 codec (Web Crypto, decision 0105) against the server's jsonwebtoken
// codec: the same rules, the same rejection for every token, and each one's tokens verify in
// the other.
const SECRET = 'a-signing-secret-that-is-long-enough-for-hs256';
const NOW = new Date('2030-01-01T00:00:00.000Z');
const IAT = NOW.getTime() / 1000;
const CLAIMS = { sub: '7', name: 'Ada', role: 'USER', iat: IAT, exp: IAT + 900 } as const;
const mocks = createHs256AccessTokenCodec(SECRET);
const server = createJwtAccessTokenCodec(SECRET);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs256 = (input: string) => createHmac('sha256', SECRET).update(input).digest('base64url');
const withHeader = (header: object, payload: object | string = CLAIMS) => {
  const body =
    typeof payload === 'string' ? Buffer.from(payload).toString('base64url') : b64(payload);
  const input = `${b64(header)}.${body}`;
  return `${input}.${hs256(input)}`;
};

async function reason(codec: AccessTokenCodec, token: string, now = NOW): Promise<TokenRejection> {
  const error: unknown = await codec.verify(token, now).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof TokenRejectedError)) throw new Error(`not refused: ${String(error)}`);
  return error.reason;
}

/** The same bytes in another encoding: the last character's two unused bits set otherwise. */
const nonCanonical = (part: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return part.slice(0, -1) + alphabet[alphabet.indexOf(part.at(-1)!) ^ 1];
};

const HEADER = { alg: 'HS256', typ: 'JWT' };
const { role: _role, ...noRole } = CLAIMS;
const { exp: _exp, ...noExp } = CLAIMS;
const signed = withHeader(HEADER);
const [h, p] = signed.split('.') as [string, string];

/** Tokens and the reason both codecs give (jsonwebtoken's, mapped by the server's codec). */
const REFUSED: [string, TokenRejection][] = [
  ['', 'malformed'],
  ['garbage', 'malformed'],
  ['a.b', 'malformed'],
  ['a.b.c.d', 'malformed'],
  [`${Buffer.from('not json').toString('base64url')}.${b64(CLAIMS)}.x`, 'malformed'],
  [`${b64('a string header')}.${b64(CLAIMS)}.x`, 'malformed'],
  [`${b64({ typ: 'JWT' })}.${b64(CLAIMS)}.x`, 'malformed'],
  [`${h}..${hs256(`${h}.`)}`, 'malformed'],
  [`${h}.${p}!.${hs256(`${h}.${p}!`)}`, 'malformed'],
  [withHeader({ ...HEADER, crit: ['exp'] }), 'malformed'],
  [withHeader(HEADER, noRole), 'malformed'],
  [withHeader(HEADER, noExp), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, role: 'ROOT' }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, sub: 7 }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, sub: '' }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, name: null }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, iat: '1' }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, exp: IAT + 0.5 }), 'malformed'],
  [withHeader(HEADER, { ...CLAIMS, exp: String(IAT + 900) }), 'malformed'],
  [withHeader(HEADER, 'not json'), 'malformed'],
  [withHeader(HEADER, '[1,2]'), 'malformed'],
  [`${b64({ alg: 'none', typ: 'JWT' })}.${b64(CLAIMS)}.`, 'algorithm'],
  [withHeader({ alg: 'HS512', typ: 'JWT' }), 'algorithm'],
  [withHeader({ alg: 'RS256', typ: 'JWT' }), 'algorithm'],
  [withHeader({ alg: 'hs256', typ: 'JWT' }), 'algorithm'],
  [jwt.sign(CLAIMS, SECRET, { algorithm: 'HS384' }), 'algorithm'],
  [`${h}.${p}.`, 'signature'],
  [`${h}.${p}.${hs256('other input')}`, 'signature'],
  [`${h}.${b64({ ...CLAIMS, sub: '1' })}.${signed.split('.')[2]}`, 'signature'],
  [`${h}.${p}.${signed.split('.')[2]!.slice(0, -1)}`, 'signature'],
  [`${h}.${p}.${nonCanonical(signed.split('.')[2]!)}`, 'signature'],
  [jwt.sign(CLAIMS, `${SECRET}-other`), 'signature'],
  [jwt.sign({ ...CLAIMS, nbf: IAT + 60 }, SECRET), 'not-yet-valid'],
  [jwt.sign({ ...CLAIMS, exp: IAT }, SECRET), 'expired'],
  [jwt.sign({ ...CLAIMS, nbf: IAT + 60, exp: IAT }, SECRET), 'not-yet-valid'],
];

describe('the mocks’ HS256 codec and the server’s jsonwebtoken codec', () => {
  it('verify each other’s tokens, with the same claims and header', async () => {
    const fromMocks = await mocks.sign(
      { sub: '7', name: 'Ada Lovelace é', role: 'USER' },
      900,
      NOW,
    );
    const fromServer = await server.sign(
      { sub: '7', name: 'Ada Lovelace é', role: 'USER' },
      900,
      NOW,
    );
    const expected = { ...CLAIMS, name: 'Ada Lovelace é' };
    expect(await server.verify(fromMocks, NOW)).toEqual(expected);
    expect(await mocks.verify(fromServer, NOW)).toEqual(expected);
    expect(jwt.decode(fromMocks, { complete: true })?.header).toEqual(HEADER);
    expect(jwt.verify(fromMocks, SECRET, { algorithms: ['HS256'], clockTimestamp: IAT })).toEqual(
      expected,
    );
  });

  it.each(REFUSED.map(([token, why], row) => [row, why, token] as const))(
    'row %i: both refuse as %s',
    async (_row, why, token) => {
      expect(await reason(server, token), 'server').toBe(why);
      expect(await reason(mocks, token), 'mocks').toBe(why);
    },
  );

  it('expire at exp and not a second before, judged by the given time', async () => {
    for (const codec of [mocks, server]) {
      const token = await codec.sign({ sub: '7', name: 'Ada', role: 'USER' }, 900, NOW);
      await expect(codec.verify(token, new Date(NOW.getTime() + 899_999))).resolves.toEqual(CLAIMS);
      expect(await reason(codec, token, new Date(NOW.getTime() + 900_000))).toBe('expired');
    }
  });

  it('answer only the known claims', async () => {
    const token = withHeader(HEADER, { ...CLAIMS, admin: true });
    expect(await mocks.verify(token, NOW)).toEqual(CLAIMS);
    expect(await server.verify(token, NOW)).toEqual(CLAIMS);
  });

  it('refuse a secret shorter than 32 bytes, counting bytes', () => {
    expect(() => createHs256AccessTokenCodec('x'.repeat(31))).toThrow(/at least 32 bytes/);
    expect(() => createHs256AccessTokenCodec('é'.repeat(16))).not.toThrow();
  });
});
