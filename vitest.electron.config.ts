import { defineConfig } from 'vitest/config';

// `npm run test:electron`: the built desktop app in real Electron (test/electron), one app at a time.
// Without an Electron binary its tests skip with the reason (test/electron/support/electron-binary.ts);
// on CI they fail instead. The waits are the e2e suite's: the app polls the merchant.
export default defineConfig({
  test: {
    include: ['test/electron/**/*.electron.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
