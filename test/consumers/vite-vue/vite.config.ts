import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

// https://vite.dev/config/ (the template's), and the tests a team adds: the same component and
// API tests in jsdom and happy-dom with the README's setup (src/test/, copied in by the
// harness), and the mocks' start-up in a fresh jsdom test file without that setup.
export default defineConfig({
  plugins: [vue()],
  test: {
    testTimeout: 30_000,
    projects: [
      ...(['jsdom', 'happy-dom'] as const).map((environment) => ({
        extends: true as const,
        test: {
          name: environment,
          environment,
          include: ['src/**/*.test.ts'],
          exclude: ['src/startup.test.ts'],
          setupFiles: ['src/test/setup.ts'],
        },
      })),
      {
        extends: true as const,
        test: { name: 'startup', environment: 'jsdom', include: ['src/startup.test.ts'] },
      },
    ],
  },
});
