/**
 * Insight retention: events of published sites that occurred more than `INSIGHTS_RETENTION_DAYS`
 * ago are deleted (every process with a job worker runs this hourly: ./routes.ts).
 */
import type { Db } from '../../../db/database.js';
import { deleteInBatches } from '../../../jobs/housekeeping.js';
import { deleteInsightEventsBefore } from './repo.js';

/**
 * Rows one statement deletes. Small enough that a batch holds SQLite's write lock (and blocks the
 * event loop, better-sqlite3 being synchronous) for milliseconds, large enough that a backlog of
 * millions of events goes in a few hundred statements.
 */
const INSIGHTS_PURGE_BATCH = 5_000;

export interface PurgeOptions {
  /** The present, in ms since the epoch (tests move it). */
  now?: number;
  /** Rows per statement; default {@link INSIGHTS_PURGE_BATCH}. */
  batchSize?: number;
  /** Stops the run between two batches (the app is closing). */
  signal?: AbortSignal;
}

/**
 * Deletes the insight events (of every site) that occurred more than `retentionDays` before `now`,
 * batch after batch, each batch committed on its own; returns how many.
 */
export async function purgeExpiredInsightEvents(
  db: Db,
  retentionDays: number,
  options: PurgeOptions = {},
): Promise<number> {
  const { now = Date.now(), batchSize = INSIGHTS_PURGE_BATCH, signal } = options;
  // One cutoff for the whole run: it deletes what had expired when it started.
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return deleteInBatches((limit) => deleteInsightEventsBefore(db, before, limit), { batchSize, signal });
}
