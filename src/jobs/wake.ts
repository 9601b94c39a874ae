/**
 * Waking the job workers of this process as soon as enqueued jobs are committed, so their work (a
 * webhook delivery) starts at once rather than at the next poll. `enqueue` asks for a wake once
 * its transaction has ended (`afterCommit`, src/core/service.ts; at once outside a transaction);
 * a running worker listens. A job to run a little later (a delivery that waits for the one before
 * it) wakes them when it is due, so a burst of N deliveries to one webhook is not paced by the
 * poll (N polls). Workers of other processes on the same database still find the job at their
 * next poll. A wake that finds nothing to do (a rolled-back transaction, another app's database in
 * the same process) costs one claim query.
 */
import type { Kysely } from 'kysely';
import { afterCommit } from '../db/after-commit.js';
import type { Database } from '../db/schema.js';

const listeners = new Set<() => void>();

/**
 * Jobs due later than this are left to the poll: the timer would only save part of one poll
 * interval, and retries due in hours would each hold a timer.
 */
const WAKE_LATER_MAX_MS = 60_000;

function wakeAll(): void {
  for (const wake of listeners) wake();
}

/** Calls `wake` whenever jobs enqueued in this process are committed; returns the function that stops it. */
export function onJobsCommitted(wake: () => void): () => void {
  listeners.add(wake);
  return () => listeners.delete(wake);
}

/** Called by `enqueue` after its insert, with the database or transaction it wrote in and when the job is due. */
export function jobEnqueued(db: Kysely<Database>, runAt?: Date): void {
  afterCommit(db, () => {
    const delay = runAt ? runAt.getTime() - Date.now() : 0;
    if (delay <= 0) return wakeAll();
    if (delay <= WAKE_LATER_MAX_MS) setTimeout(wakeAll, delay + 1).unref(); // +1: not a moment early
  });
}
