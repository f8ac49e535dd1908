import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/*.test.ts'],
          exclude: ['src/startup.test.ts'],
          setupFiles: ['src/test/setup.ts'],
        },
      },
      // The first answer through the client, measured in a fresh test file without the setup.
      {
        extends: true as const,
        test: { name: 'startup', environment: 'node', include: ['src/startup.test.ts'] },
      },
    ],
  },
});
