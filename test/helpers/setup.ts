/**
 * Run before every test file (vitest `setupFiles`): a failed test prints what its browser pages did
 * (test/helpers/browser-log.ts), so that a browser test failing only on some machine explains itself.
 */
import { beforeEach } from 'vitest';
import { browserLog, resetBrowserLog } from './browser-log.js';

beforeEach(({ task, onTestFailed }) => {
  resetBrowserLog();
  onTestFailed(() => {
    const log = browserLog();
    if (log.length) process.stderr.write(`\n── what the browser did in "${task.name}" ──\n${log.join('\n')}\n\n`);
  });
});
