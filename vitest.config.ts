import { defineConfig } from 'vitest/config';

// Integration suites start real servers (the sandbox over HTTPS, webhook receivers), so the
// timeouts are generous; speed targets live in `npm run bench`, never in test assertions.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
