import { request, type ClientRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileTestServer, type FileTestServer } from '../start-file-test-server.js';
import type { TestServer } from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import { StoreUnavailableError } from '../../core/domain/store.js';
import type { FailingAdapter } from '../support/store/failing-adapter.js';
import { httpCall, type HttpAnswer } from '../support/hardening/http-call.js';

/*
 * close() under load, on the real file store with slow flushes (300 ms each) so that writes
 * are still in flight when it starts: they complete with 201 and are in the file; a request
 * whose body was still uploading completes too; requests queued on open connections get 503
 * (problem+json, Retry-After, Connection: close); new connections are refused (decision 0021).
 */

const IN_FLIGHT = 30;
const PIPELINED = 3;
const FLUSH_MS = 300;

let dbFile: string;
let disk: FailingAdapter<Dataset>;
let server: TestServer;

let fixture: FileTestServer | undefined;

beforeAll(async () => {
  fixture = await startFileTestServer('apikit-shutdown-');
  ({ dbFile, disk, server } = fixture);
});

afterAll(() => fixture?.close());

const userBody = (i: number | string) =>
  JSON.stringify({ name: `Drain ${i}`, email: `drain-${i}@example.com` });

/** Starts a POST whose body is only half sent; `finish()` sends the rest. */
function slowUpload(): { finish(): void; answer: Promise<HttpAnswer> } {
  const body = Buffer.from(userBody('slow'));
  const { hostname, port } = new URL(server.url);
  let req!: ClientRequest;
  const answer = new Promise<HttpAnswer>((resolve, reject) => {
    req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/api/v1/users',
        agent: false,
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const headers = new Headers(res.headers as Record<string, string>);
          resolve({ status: res.statusCode ?? 0, headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(body.subarray(0, 10));
  return { finish: () => req.end(body.subarray(10)), answer };
}

async function waitFor(what: string, done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('graceful shutdown under load', () => {
  it('in-flight writes complete and persist; queued requests 503; new connections refused', async () => {
    let received = 0;
    server.server.on('request', () => (received += 1));
    disk.delayMs = FLUSH_MS;
    const writes = Array.from({ length: IN_FLIGHT }, (_, i) =>
      httpCall({
        method: 'POST',
        url: `${server.api}/users`,
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
        },
        body: userBody(i),
      }),
    );
    const upload = slowUpload();
    // Keep-alive connections with a write in flight and a GET pipelined behind it.
    const clients = Array.from(
      { length: PIPELINED },
      () => new Client(server.url, { pipelining: 2 }),
    );
    const pipelinedWrites = clients.map((client, i) =>
      client.request({
        method: 'POST',
        path: '/api/v1/users',
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
        },
        body: userBody(`pipelined-${i}`),
        blocking: false,
      }),
    );
    await waitFor('every request to reach the server', () => received >= IN_FLIGHT + 1 + PIPELINED);

    const closing = server.close();
    const queued = clients.map((client) =>
      client.request({
        method: 'GET',
        path: '/api/v1/users/1',
        headers: { Authorization: `Bearer ${server.adminToken}` },
      }),
    );
    // The listener is closed: a new connection is refused outright.
    const fresh = await httpCall({ method: 'GET', url: `${server.url}/healthz` }).then(
      (res) => `answered ${res.status}`,
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(fresh).toBe('ECONNREFUSED');
    upload.finish();

    const answers = await Promise.all([...writes, upload.answer]);
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const pipelined = await Promise.all(pipelinedWrites);
    const acknowledged = answers.map((res) => res.json<{ id: number; email: string }>());
    for (const res of pipelined) {
      expect(res.statusCode).toBe(201);
      acknowledged.push((await res.body.json()) as { id: number; email: string });
    }
    for (const res of await Promise.all(queued)) {
      const text = await res.body.text();
      expect(res.statusCode, text).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      expect(res.headers['connection']).toBe('close');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    await closing;
    await Promise.all(clients.map((client) => client.close()));

    // Everything acknowledged is in the file; the store takes nothing more.
    const onDisk = JSON.parse(await readFile(dbFile, 'utf8')) as Dataset;
    expect(acknowledged).toHaveLength(IN_FLIGHT + 1 + PIPELINED);
    for (const user of acknowledged) expect(onDisk.users[String(user.id)]?.email).toBe(user.email);
    await expect(server.store!.write(() => 1)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
