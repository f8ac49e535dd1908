import { defineConfig } from 'vitest/config';

// Two projects: `unit` is every test beside its code (`npm run test:unit`), `integration` every
// harness in test/ (real servers, browsers, child processes, the packed tarball). `npm test`
// runs both, and CI's JSON report counts both.
const ignored = ['node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    // Integration tests start real servers on port 0; shared CI machines are slow and noisy.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Servers the tests stop with SIGTERM drain at once; a test of the drain delay (decision
    // 0111) passes --drain-delay itself.
    env: { APIKIT_DRAIN_DELAY: '0' },
    // CI reads the totals from the JSON report (.ci/run prints "N passed, N failed").
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.vitest-results.json' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...ignored, 'test/**'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          // test/consumers/*/ are fixture apps with tests of their own, run by consumers.test.ts.
          exclude: [...ignored, 'test/consumers/*/**'],
        },
      },
    ],
  },
});
