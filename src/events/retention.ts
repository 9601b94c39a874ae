/**
 * Audit retention: events older than `AUDIT_RETENTION_DAYS` are deleted (their deliveries with
 * them), in batches (every process with a job worker runs this hourly: src/background.ts).
 */
import type { Db } from '../db/database.js';
import { deleteInBatches, type PurgeOptions } from '../jobs/housekeeping.js';
import { deleteEventsBefore } from './repo.js';

/** Deletes the events recorded more than `retentionDays` before `now`, batch after batch; returns how many. */
export async function purgeExpiredEvents(
  db: Db,
  retentionDays: number,
  { now = Date.now(), ...batches }: PurgeOptions = {},
): Promise<number> {
  // One cutoff for the whole run: it deletes what had expired when it started.
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return deleteInBatches((limit) => deleteEventsBefore(db, before, limit), batches);
}
