// How long a fresh test file waits for its first answer: import apikit/mocks, create the mock
// API, answer one request. The consumer harness reads the line this prints.
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';

it('answers the first request of a fresh jsdom test file', async () => {
  const started = performance.now();
  // Nothing imports the package before this line: the import is part of the time.
  const { createMockApi, unhandledRequests } = await import('user-order-apikit/mocks');
  const imported = performance.now();
  const mock = createMockApi({ auth: 'off' });
  const server = setupServer(...mock.handlers);
  server.listen(unhandledRequests('error', mock));
  try {
    const res = await fetch('/api/v1/users?size=1');
    const answered = performance.now();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: unknown[] }).content).toHaveLength(1);
    console.log(
      `apikit-startup: ${Math.round(answered - started)} ms to the first answer (import ${Math.round(imported - started)} ms)`,
    );
  } finally {
    server.close();
  }
});
