import { defineConfig } from 'vitest/config';

// End-to-end tests (test/e2e): the built renderer in the installed Chromium, Chrome or Edge
// (test/support/browser-executable.ts) through the web host and its demo merchant. A run of their own
// after the unit suites (`npm test` builds the renderer first), with their own JSON report; each file
// has its own host and browser, so files may run side by side.
// Waits inside are bounded by the app's polling (15 s after a change), hence the long timeouts.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // A screen can take more than expect.poll's default second to follow on a loaded two-core box.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
