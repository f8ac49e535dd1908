// How long a fresh test file waits for its first answer: load apikit/mocks, create the mock
// API, answer one request. The consumer harness reads the line this prints (jest.startup.config.js
// runs it; Jest's own test files do not match its name).
import { setupServer } from 'msw/node';

test('answers the first request of a fresh jsdom test file', async () => {
  const started = performance.now();
  const { createMockApi, unhandledRequests } = require('user-order-apikit/mocks');
  const imported = performance.now();
  const mock = createMockApi({ auth: 'off' });
  const server = setupServer(...mock.handlers);
  server.listen(unhandledRequests('error', mock));
  try {
    const res = await fetch('/api/v1/users?size=1');
    const answered = performance.now();
    expect(res.status).toBe(200);
    expect((await res.json()).content).toHaveLength(1);
    process.stdout.write(
      `apikit-startup: ${Math.round(answered - started)} ms to the first answer (import ${Math.round(imported - started)} ms)\n`,
    );
  } finally {
    server.close();
  }
});
