import { acceptsCredentials } from '../../spec/operation-security.js';
import { Client } from 'undici';
import { expect } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import type { ResponseValidator } from '../../spec/response-validator.js';
import type { Dataset } from '../../core/domain/dataset.js';
import type { RunningServer } from '../../reference-server/create-server.js';
import type { FailingAdapter } from '../support/store/failing-adapter.js';
import type { Problem } from './contract-checks.js';
import type { ServerHandle } from './fixtures.js';
import { samplePath } from './generic-rows.js';

export interface DrainCheckInput {
  server: RunningServer & ServerHandle;
  disk: FailingAdapter<Dataset>;
  operations: readonly SpecOperation[];
  validator: ResponseValidator;
  /** Told of each operation that answered 503. */
  reached: (operationId: string) => void;
}

/**
 * Closes the server while every connection has a slow write in flight and one request of each
 * given operation pipelined behind it (one keep-alive connection per operation, undici
 * `Client` with pipelining): the writes complete, and each queued request is answered 503
 * problem+json with Retry-After and `Connection: close`.
 */
export async function expectDrainAnswers503(input: DrainCheckInput): Promise<void> {
  const { server, disk, operations, validator } = input;
  disk.delayMs = 400; // each flush takes this long: the writes stay in flight meanwhile
  let writesReceived = 0;
  let queuedReceived = 0;
  server.server.on('request', (req) => {
    if (req.method === 'PUT') writesReceived += 1;
    else queuedReceived += 1;
  });
  const clients = operations.map(() => new Client(server.url, { pipelining: 4 }));
  try {
    const inFlight = clients.map((client, i) =>
      client.request({
        method: 'PUT',
        path: `/api/v1/users/${9_000_000_000 + i}`,
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: 'In Flight', email: `inflight.${i}@example.com` }),
        blocking: false, // pipeline the next request behind it instead of waiting for its answer
      }),
    );
    for (let waited = 0; writesReceived < clients.length; waited += 10) {
      if (waited > 5_000) throw new Error(`only ${writesReceived} writes reached the server`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    queuedReceived = 0;
    const closing = server.close();
    const queued = operations.map((op, i) =>
      (clients[i] as Client).request({
        method: op.method.toUpperCase() as 'GET' | 'OPTIONS',
        path: `/api/v1${samplePath(op)}`,
        headers: {
          'X-Request-Id': `drain-${i}`,
          ...(acceptsCredentials(op) ? { Authorization: `Bearer ${server.adminToken}` } : {}),
        },
        idempotent: true, // may be pipelined (OPTIONS is not idempotent for undici by default)
      }),
    );
    await Promise.race(inFlight);
    expect(queuedReceived, 'queued while the writes were still in flight').toBe(clients.length);
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.statusCode, 'in-flight requests complete').toBe(201);
      await answer.body.dump();
    }
    for (const [i, op] of operations.entries()) {
      const answer = await (queued[i] as ReturnType<Client['request']>);
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const body = await answer.body.text();
      expect(answer.statusCode, `${op.operationId}: ${body}`).toBe(503);
      input.reached(op.operationId);
      expect(validator.validate(op.operationId, { status: 503, headers, body })).toEqual([]);
      expect(headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(headers.get('connection')).toBe('close');
      const problem = JSON.parse(body) as Problem;
      expect(problem.instance).toBe(`/api/v1${samplePath(op)}`);
      expect(problem.requestId).toBe(`drain-${i}`);
      expect(headers.get('x-request-id')).toBe(`drain-${i}`);
    }
    await closing;
  } finally {
    disk.delayMs = 0;
    await Promise.all(clients.map((client) => client.destroy()));
  }
}
