/**
 * Waking the job workers of this process as soon as enqueued jobs are committed, so their work (a
 * webhook delivery) starts at once rather than at the next poll. `enqueue` asks for a wake once
 * its transaction has ended (`afterCommit`, src/core/service.ts; at once outside a transaction);
 * a running worker listens. Workers of other processes on the same database still find the job at
 * their next poll. A wake that finds nothing to do (a rolled-back transaction, another app's
 * database in the same process) costs one claim query.
 */
import type { Kysely } from 'kysely';
import { afterCommit } from '../db/after-commit.js';
import type { Database } from '../db/schema.js';

const listeners = new Set<() => void>();

/** Calls `wake` whenever jobs enqueued in this process are committed; returns the function that stops it. */
export function onJobsCommitted(wake: () => void): () => void {
  listeners.add(wake);
  return () => listeners.delete(wake);
}

/** Called by `enqueue` after its insert, with the database or transaction it wrote in. */
export function jobEnqueued(db: Kysely<Database>): void {
  afterCommit(db, () => {
    for (const wake of listeners) wake();
  });
}
