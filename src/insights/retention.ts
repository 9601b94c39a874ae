/**
 * Insight retention: events of published sites that occurred more than `INSIGHTS_RETENTION_DAYS`
 * ago are deleted (every process with a job worker runs this hourly: src/background.ts).
 */
import type { Db } from '../db/database.js';
import { deleteInBatches, type PurgeOptions } from '../jobs/housekeeping.js';
import { deleteInsightEventsBefore } from './repo.js';

/**
 * Deletes the insight events (of every site) that occurred more than `retentionDays` before `now`,
 * batch after batch, each batch committed on its own; returns how many.
 */
export async function purgeExpiredInsightEvents(
  db: Db,
  retentionDays: number,
  { now = Date.now(), ...batches }: PurgeOptions = {},
): Promise<number> {
  // One cutoff for the whole run: it deletes what had expired when it started.
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return deleteInBatches((limit) => deleteInsightEventsBefore(db, before, limit), batches);
}
