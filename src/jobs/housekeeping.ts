/**
 * Housekeeping: periodic work that belongs to no request and no job, such as the retention purges
 * (every task is scheduled in src/background.ts; each purge is written in its area). It runs in
 * every process with a job worker (`JOB_CONCURRENCY` > 0) and in no API-only process, so that a
 * deployment chooses which processes spend time on it: once when the app is ready, then every
 * `everyMs` (hourly by default). A failed run is logged and the next one comes at its time.
 */
import type { FastifyInstance } from 'fastify';

/** What scheduling needs of the app: whether it runs jobs, its log and its lifecycle hooks. */
export type HousekeepingHost = Pick<FastifyInstance, 'addHook' | 'log'> & { config: { jobConcurrency: number } };

const HOUR_MS = 3_600_000;

export interface HousekeepingTask {
  /** Logged at error level, with the error, when a run fails. */
  failureMessage: string;
  /** One run. `signal` is aborted when the app closes: a long run should stop at its next step. */
  run(signal: AbortSignal): Promise<unknown>;
  /** From the start of one run to the start of the next; default one hour. */
  everyMs?: number;
}

/**
 * Rows one purge statement deletes by default. Small enough that a batch holds SQLite's write lock
 * (and blocks the event loop, better-sqlite3 being synchronous) for milliseconds — measured over
 * 300,000 finished jobs: 8.5–9.1 ms on SQLite, 10–11 ms on PostgreSQL — and large enough that a
 * backlog of millions of rows goes in a few hundred statements.
 */
export const PURGE_BATCH = 5_000;

/** How a retention purge runs (`purgeExpiredEvents`, `purgeExpiredInsightEvents`, `purgeFinishedJobs`). */
export interface PurgeOptions {
  /** The present, in ms since the epoch (tests move it). */
  now?: number;
  /** Rows per statement; default {@link PURGE_BATCH}. */
  batchSize?: number;
  /** Stops the run between two batches (the app is closing). */
  signal?: AbortSignal;
}

/**
 * Runs `deleteBatch` (one statement that deletes at most `limit` rows and returns how many) until a
 * batch deletes fewer than `batchSize` or `signal` is aborted; returns how many in all. Each batch
 * commits on its own, so no transaction (on SQLite: the write lock) lasts longer than one batch.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  { batchSize = PURGE_BATCH, signal }: Pick<PurgeOptions, 'batchSize' | 'signal'> = {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize || signal?.aborted) return total;
    // On SQLite every await above settles without a turn of the event loop (the driver is
    // synchronous): without this one, requests that arrived meanwhile would wait for the whole purge.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Runs `task` on ready and then every `everyMs` in processes with a job worker; stops on close. */
export function scheduleHousekeeping(app: HousekeepingHost, task: HousekeepingTask): void {
  if (app.config.jobConcurrency === 0) return;
  const everyMs = task.everyMs ?? HOUR_MS;
  const closing = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    // A run still going (a first purge of a large backlog) is not joined by a second one.
    if (running) return;
    running = task
      .run(closing.signal)
      .then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, task.failureMessage),
      )
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, everyMs);
    // unref: the timer alone must not keep a process alive that is otherwise done.
    timer.unref();
  });
  // Registered after the database's hook, this closes first (onClose runs in reverse order), so a run
  // in progress ends here, at its next step, instead of failing against a closed database.
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    closing.abort();
    await running;
  });
}
