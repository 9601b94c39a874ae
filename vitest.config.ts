import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'app/src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // A failed test prints what its browser pages did (test/helpers/browser-log.ts).
    setupFiles: ['test/helpers/setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine. Test
    // files wait on sockets, databases and the browser much of their time, so two run well there
    // (the suite's wall time nearly halves); files never share state but the database, and on
    // PostgreSQL each works in organizations of its own.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it loaded from one test file to the next: each file importing the
    // whole server anew cost 13 of the suite's 20 minutes on this machine (import 784 s of work,
    // then 49 s; the suite 19.5 min, then 4). Test files share no module state that matters: each
    // builds its own app (createHarness), database and organizations.
    isolate: false,
    // Limits against hangs, not timings: a busy 2-core machine starts an app (tsx, hundreds of
    // compiled schemas) many times slower than an idle one, and a timing belongs in npm run bench.
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
