import { defineConfig } from 'vitest/config';

// Integration suites start real servers (the sandbox over HTTPS, webhook receivers), so the
// timeouts are generous; speed targets live in `npm run bench`, never in test assertions.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end suites run on their own after the renderer is built (vitest.e2e.config.ts), and
    // the real-Electron suite after them (vitest.electron.config.ts).
    exclude: ['test/e2e/**', 'test/electron/**/*.electron.test.ts', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time, whatever the core count (Vitest 5's default is one per core): the suites mostly wait
    // on servers and children, not the CPU (measured on two cores: 9 minutes with two, 20 with one).
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default'],
  },
});
