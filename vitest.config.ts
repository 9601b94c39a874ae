import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'app/src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Limits against hangs, not timings: a busy 2-core machine starts an app (tsx, hundreds of
    // compiled schemas) many times slower than an idle one, and a timing belongs in npm run bench.
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
