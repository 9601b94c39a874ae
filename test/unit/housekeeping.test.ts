/**
 * Housekeeping tasks (src/jobs/housekeeping.ts): run on ready and then at every interval in a
 * process with a job worker, never in one without; a failed run is logged and the next one comes;
 * a run still going is not joined by another; closing stops the timer, aborts the run's signal and
 * waits for it.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import { type HousekeepingTask, scheduleHousekeeping } from '../../src/jobs/housekeeping.js';

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A bare app with the configuration housekeeping reads, `task` scheduled on it. */
async function appWith(jobConcurrency: number, task: HousekeepingTask) {
  const app = Fastify() as unknown as App;
  app.decorate('config', { jobConcurrency } as Config);
  const logged = vi.spyOn(app.log, 'error');
  scheduleHousekeeping(app, task);
  apps.push(app);
  await app.ready();
  return { app, logged };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduleHousekeeping', () => {
  it('runs on ready, then every interval, and no more once the app is closed', async () => {
    let runs = 0;
    const { app } = await appWith(1, { failureMessage: 'x', everyMs: 20, run: async () => void runs++ });
    expect(runs).toBe(1);
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3));
    await app.close();
    const after = runs;
    await sleep(60);
    expect(runs).toBe(after);
  });

  it('does not run in a process without a job worker', async () => {
    let runs = 0;
    await appWith(0, { failureMessage: 'x', everyMs: 10, run: async () => void runs++ });
    await sleep(40);
    expect(runs).toBe(0);
  });

  it('logs a failed run with its message and runs again at the next interval', async () => {
    let runs = 0;
    const failure = new Error('database is locked');
    const { logged } = await appWith(1, {
      failureMessage: 'could not purge expired things',
      everyMs: 20,
      run: async () => {
        runs++;
        throw failure;
      },
    });
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(2));
    expect(logged).toHaveBeenCalledWith({ err: failure }, 'could not purge expired things');
  });

  it('does not start a run while one is going; closing aborts it and waits for its end', async () => {
    let runs = 0;
    let ended = false;
    const { app } = await appWith(1, {
      failureMessage: 'x',
      everyMs: 10,
      run: async (signal) => {
        runs++;
        while (!signal.aborted) await sleep(5);
        await sleep(20);
        ended = true;
      },
    });
    await sleep(60);
    expect(runs).toBe(1);
    await app.close();
    expect(ended).toBe(true);
  });
});
