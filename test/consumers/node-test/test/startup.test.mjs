// How long a fresh test file waits for its first answer: import apikit/mocks, create the mock
// API, answer one request. node --test runs this file in a process of its own; the consumer
// harness reads the line it prints.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setupServer } from 'msw/node';

it('answers the first request of a fresh test file', async () => {
  const started = performance.now();
  const { createMockApi, unhandledRequests } = await import('user-order-apikit/mocks');
  const imported = performance.now();
  const mock = createMockApi({ auth: 'off' });
  const server = setupServer(...mock.handlers);
  server.listen(unhandledRequests('error', mock));
  try {
    const res = await fetch('http://api.test/api/v1/users?size=1');
    const answered = performance.now();
    assert.equal(res.status, 200);
    assert.equal((await res.json()).content.length, 1);
    console.log(
      `apikit-startup: ${Math.round(answered - started)} ms to the first answer (import ${Math.round(imported - started)} ms)`,
    );
  } finally {
    server.close();
  }
});
