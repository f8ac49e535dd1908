// How long a fresh test file waits for its first answer through the client: import
// apikit/mocks, create the mock API, answer one request. The consumer harness reads the line.
// Nothing of apikit is imported statically: the import measured would be loaded already.
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import { createApi } from './api/client';

it('answers the first request of a fresh test file', async () => {
  const started = performance.now();
  const { createMockApi, unhandledRequests } = await import('user-order-apikit/mocks');
  const imported = performance.now();
  const mock = createMockApi({ baseUrl: 'http://localhost', auth: 'off' });
  const server = setupServer(...mock.handlers);
  server.listen(unhandledRequests('error', mock));
  try {
    const { data, response } = await createApi().client.GET('/users', {
      params: { query: { size: 1 } },
    });
    const answered = performance.now();
    expect(response.status).toBe(200);
    expect(data!.content).toHaveLength(1);
    console.log(
      `apikit-startup: ${Math.round(answered - started)} ms to the first answer (import ${Math.round(imported - started)} ms)`,
    );
  } finally {
    server.close();
  }
});
