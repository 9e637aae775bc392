import { defineConfig } from 'vitest/config';

// Integration suites start real servers (the sandbox over HTTPS, webhook receivers), so the
// timeouts are generous; speed targets live in `npm run bench`, never in test assertions.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end suites run on their own after the renderer is built (vitest.e2e.config.ts).
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default'],
  },
});
