import { defineConfig } from 'vitest/config';

// `npm run screens` only: photographs the built renderer for docs/screens (test/screens). One look
// after the other, so the pictures are taken on a quiet machine.
export default defineConfig({
  test: {
    include: ['test/screens/**/*.screens.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});
