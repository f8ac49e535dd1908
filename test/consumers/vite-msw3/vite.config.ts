import { defineConfig } from 'vitest/config';

// The README's setup (src/test/, copied from ../vite-react by msw3.test.ts) under msw 3, in the
// two environments it supports there: happy-dom's own fetch is not (decision 0101).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: (['node', 'jsdom'] as const).map((environment) => ({
      extends: true as const,
      test: {
        name: environment,
        environment,
        include: ['src/*.test.ts'],
        setupFiles: ['src/test/setup.ts'],
      },
    })),
  },
});
