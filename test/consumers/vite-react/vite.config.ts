import { defineConfig } from 'vitest/config';

// Plain TSX through Vite's own transform: no @vitejs/plugin-react needed for this app.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: [
      // The same API tests in the three environments frontend tests run in.
      ...(['jsdom', 'happy-dom', 'node'] as const).map((environment) => ({
        extends: true as const,
        test: {
          name: environment,
          environment,
          include: environment === 'node' ? ['src/api.test.ts'] : ['src/*.test.{ts,tsx}'],
          exclude: ['src/startup.test.ts'],
          setupFiles: ['src/test/setup.ts'],
        },
      })),
      // The mocks' start-up, measured in a fresh jsdom test file without the shared setup.
      {
        extends: true as const,
        test: { name: 'startup', environment: 'jsdom', include: ['src/startup.test.ts'] },
      },
    ],
  },
});
