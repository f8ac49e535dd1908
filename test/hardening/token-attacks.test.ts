import { createSign, generateKeyPairSync, createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../start-test-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall } from '../support/hardening/http-call.js';

/*
 * Forged and stale access tokens against the real server over HTTP. Every row is refused with
 * 401 invalid_token on a read and on an ADMIN write, and the write never happens.
 */

let server: TestServer;
/** A user made for the test and then deleted: its token must die with it. */
let deletedId: number;
/** A user made for the test and then BLOCKED. */
let blockedId: number;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** What an attacker wants: the admin's identity. */
const adminClaims = () => ({
  sub: '1',
  name: 'Ada Admin',
  role: 'ADMIN',
  iat: nowSeconds(),
  exp: nowSeconds() + 900,
});

function compact(header: object, payload: object, sign: (input: string) => string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}
const hmac = (hash: string, key: string | Buffer) => (input: string) =>
  createHmac(hash, key).update(input).digest('base64url');
/** A token the server itself would issue (right secret, HS256), with any claims. */
const genuine = (claims: object) => jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256' });

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const attackerSecret = 'attacker-secret-attacker-secret-0123456789';

/** Swaps the payload of a real token, keeping its header and signature. */
function withPayload(token: string, payload: object): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64(payload)}.${signature}`;
}

/** The server's detail for each reason (auth-problems.ts): each row must fail for its own reason. */
const DETAILS = {
  algorithm: 'unsupported signing algorithm',
  signature: 'signature is not valid',
  expired: 'has expired',
  'not-yet-valid': 'not valid yet',
  malformed: 'malformed',
  'unknown-user': 'no longer exists',
  'blocked-user': 'is blocked',
} as const;

const attacks: { name: string; because: keyof typeof DETAILS; token: () => string }[] = [
  {
    name: 'alg none, empty signature',
    because: 'algorithm',
    token: () => compact({ alg: 'none', typ: 'JWT' }, adminClaims(), () => ''),
  },
  {
    name: 'alg "None" (case variant)',
    because: 'algorithm',
    token: () => compact({ alg: 'None', typ: 'JWT' }, adminClaims(), () => ''),
  },
  {
    name: 'alg none with the signature of a genuine token kept',
    because: 'algorithm',
    token: () => {
      const real = genuine(adminClaims()).split('.');
      return `${b64({ alg: 'none', typ: 'JWT' })}.${real[1]}.${real[2]}`;
    },
  },
  {
    name: 'HS512 signed with the server secret',
    because: 'algorithm',
    token: () =>
      compact({ alg: 'HS512', typ: 'JWT' }, adminClaims(), hmac('sha512', TEST_JWT_SECRET)),
  },
  {
    name: 'HS384 signed with the server secret',
    because: 'algorithm',
    token: () =>
      compact({ alg: 'HS384', typ: 'JWT' }, adminClaims(), hmac('sha384', TEST_JWT_SECRET)),
  },
  {
    name: 'RS256 signed with an RSA key',
    because: 'algorithm',
    token: () =>
      compact({ alg: 'RS256', typ: 'JWT' }, adminClaims(), (input) =>
        createSign('RSA-SHA256').update(input).sign(rsa.privateKey).toString('base64url'),
      ),
  },
  {
    name: 'RS256 header, HMAC-signed with the server secret (key confusion)',
    because: 'algorithm',
    token: () =>
      compact({ alg: 'RS256', typ: 'JWT' }, adminClaims(), hmac('sha256', TEST_JWT_SECRET)),
  },
  {
    name: 'ES256 signed with an EC key',
    because: 'algorithm',
    token: () =>
      compact({ alg: 'ES256', typ: 'JWT' }, adminClaims(), (input) =>
        createSign('SHA256')
          .update(input)
          .sign({ key: ec.privateKey, dsaEncoding: 'ieee-p1363' })
          .toString('base64url'),
      ),
  },
  {
    name: 'payload tampered (role USER -> ADMIN), signature kept',
    because: 'signature',
    token: () => {
      const claims = {
        sub: '2',
        name: 'Uma User',
        role: 'USER',
        iat: nowSeconds(),
        exp: nowSeconds() + 900,
      };
      return withPayload(genuine(claims), { ...claims, role: 'ADMIN' });
    },
  },
  {
    name: 'payload tampered (sub 2 -> 1), signature kept',
    because: 'signature',
    token: () => {
      const claims = {
        sub: '2',
        name: 'Uma User',
        role: 'USER',
        iat: nowSeconds(),
        exp: nowSeconds() + 900,
      };
      return withPayload(genuine(claims), { ...claims, sub: '1' });
    },
  },
  {
    name: 'payload tampered (exp extended), signature kept',
    because: 'signature',
    token: () => {
      const claims = { ...adminClaims(), iat: nowSeconds() - 3600, exp: nowSeconds() - 60 };
      return withPayload(genuine(claims), { ...claims, exp: nowSeconds() + 3600 });
    },
  },
  {
    name: 'expired a minute ago, correctly signed',
    because: 'expired',
    token: () => genuine({ ...adminClaims(), iat: nowSeconds() - 960, exp: nowSeconds() - 60 }),
  },
  {
    name: 'expired a year ago, correctly signed',
    because: 'expired',
    token: () =>
      genuine({ ...adminClaims(), iat: nowSeconds() - 31_536_000, exp: nowSeconds() - 31_535_100 }),
  },
  {
    name: 'not yet valid (nbf in an hour), correctly signed',
    because: 'not-yet-valid',
    token: () => genuine({ ...adminClaims(), nbf: nowSeconds() + 3600 }),
  },
  {
    name: 'signed with another secret',
    because: 'signature',
    token: () =>
      compact({ alg: 'HS256', typ: 'JWT' }, adminClaims(), hmac('sha256', attackerSecret)),
  },
  {
    name: 'signed with an empty secret',
    because: 'signature',
    token: () => compact({ alg: 'HS256', typ: 'JWT' }, adminClaims(), hmac('sha256', '')),
  },
  {
    name: 'embedded jwk header naming the attacker key',
    because: 'signature',
    token: () =>
      compact(
        {
          alg: 'HS256',
          typ: 'JWT',
          jwk: { kty: 'oct', k: Buffer.from(attackerSecret).toString('base64url') },
        },
        adminClaims(),
        hmac('sha256', attackerSecret),
      ),
  },
  {
    name: 'kid path traversal to an empty key',
    because: 'signature',
    token: () =>
      compact(
        { alg: 'HS256', typ: 'JWT', kid: '../../../../../../dev/null' },
        adminClaims(),
        hmac('sha256', ''),
      ),
  },
  {
    name: 'HS256 header, signature stripped',
    because: 'signature',
    token: () => compact({ alg: 'HS256', typ: 'JWT' }, adminClaims(), () => ''),
  },
  {
    name: 'a critical header extension (crit)',
    because: 'malformed',
    token: () =>
      compact(
        { alg: 'HS256', typ: 'JWT', crit: ['exp'] },
        adminClaims(),
        hmac('sha256', TEST_JWT_SECRET),
      ),
  },
  {
    name: 'no exp claim, correctly signed',
    because: 'malformed',
    token: () => genuine({ sub: '1', name: 'Ada Admin', role: 'ADMIN', iat: nowSeconds() }),
  },
  {
    name: 'sub as a number, correctly signed',
    because: 'malformed',
    token: () => genuine({ ...adminClaims(), sub: 1 }),
  },
  {
    name: 'for a user that never existed, correctly signed',
    because: 'unknown-user',
    token: () => genuine({ ...adminClaims(), sub: '987654321' }),
  },
  {
    name: 'for a deleted user, correctly signed',
    because: 'unknown-user',
    token: () => genuine({ ...adminClaims(), sub: String(deletedId) }),
  },
  {
    name: 'for a BLOCKED user, correctly signed',
    because: 'blocked-user',
    token: () => genuine({ ...adminClaims(), sub: String(blockedId) }),
  },
  { name: 'four segments', because: 'malformed', token: () => `${genuine(adminClaims())}.AAAA` },
  { name: 'not a JWT at all', because: 'malformed', token: () => 'definitely-not-a-token' },
];

const call = (method: string, path: string, token: string, body?: object) =>
  httpCall({
    method,
    url: `${server.api}${path}`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

async function newUser(name: string): Promise<number> {
  const res = await call('POST', '/users', server.adminToken, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.com`,
  });
  expect(res.status).toBe(201);
  return res.json<{ id: number }>().id;
}

beforeAll(async () => {
  server = await startTestServer();
  // Both users get ADMIN first, so that their tokens would be worth stealing.
  deletedId = await newUser('Deleted Admin');
  blockedId = await newUser('Blocked Admin');
  for (const id of [deletedId, blockedId]) {
    expect((await call('PUT', `/users/${id}/roles/2`, server.adminToken)).status).toBe(204);
    // The genuine article works before the user goes: the rows below fail for the right reason.
    const token = genuine({ ...adminClaims(), sub: String(id) });
    const probe = await call('GET', '/users/1', token);
    expect(probe.status, probe.text).toBe(200);
  }
  expect((await call('DELETE', `/users/${deletedId}`, server.adminToken)).status).toBe(204);
  expect((await call('POST', `/admin/users/${blockedId}/block`, server.adminToken)).status).toBe(
    200,
  );
});

afterAll(async () => {
  await server?.close();
});

describe('forged and stale access tokens', () => {
  it('control: a genuine token with the same claims is accepted', async () => {
    expect((await call('GET', '/users/1', genuine(adminClaims()))).status).toBe(200);
  });

  it.each(attacks)(
    '$name: 401 invalid_token ($because) on a read and on an ADMIN write',
    async ({ token, because }) => {
      const forged = token();
      for (const res of [
        await call('GET', '/users/1', forged),
        await call('POST', '/admin/users/3/block', forged),
      ]) {
        expect(expectProblem(res, 401, 'invalid-token').detail).toContain(DETAILS[because]);
        expect(res.headers.get('www-authenticate')).toBe(
          'Bearer realm="api", error="invalid_token"',
        );
      }
    },
  );

  it('no forged write got through: user 3 was never blocked', async () => {
    const res = await call('GET', '/users/3', server.adminToken);
    expect(res.status).toBe(200);
    expect(res.json<{ status: string }>().status).not.toBe('BLOCKED');
  });
});
