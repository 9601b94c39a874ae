/**
 * Finished jobs (done or failed) are kept for a week, for reading the table after an incident, then
 * deleted: every process with a job worker runs the purge hourly (scheduled in src/background.ts through
 * ./housekeeping.ts), in batches (the `finished_at` index of migration 0018 makes each one cheap), so that a backlog (a week of webhook deliveries) never holds
 * SQLite's write lock, or the event loop, for longer than one batch.
 */
import type { Db } from '../db/database.js';
import { deleteInBatches, type PurgeOptions } from './housekeeping.js';
import { deleteFinishedJobsBefore } from './queue.js';

/** How long a finished job stays in the table. */
export const KEEP_FINISHED_JOBS_MS = 7 * 86_400_000;

/** Deletes the jobs that finished more than a week before `now`, batch after batch; returns how many. */
export async function purgeFinishedJobs(db: Db, { now = Date.now(), ...batches }: PurgeOptions = {}): Promise<number> {
  // One cutoff for the whole run: it deletes what had expired when it started.
  const before = new Date(now - KEEP_FINISHED_JOBS_MS).toISOString();
  return deleteInBatches((limit) => deleteFinishedJobsBefore(db, before, limit), batches);
}
