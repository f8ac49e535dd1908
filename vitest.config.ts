import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // test/consumers/*/ are fixture apps with tests of their own, run by consumers.test.ts.
    exclude: ['node_modules/**', 'dist/**', 'test/consumers/*/**'],
    // Integration tests start real servers on port 0; shared CI machines are slow and noisy.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI reads the totals from the JSON report (.ci/run prints "N passed, N failed").
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.vitest-results.json' },
  },
});
