/** Audit retention: events older than `AUDIT_RETENTION_DAYS` are deleted (their deliveries with them). */
import type { Db } from '../db/database.js';
import { deleteEventsBefore } from './repo.js';

/** Deletes the events recorded more than `retentionDays` before `now`; returns how many. */
export async function purgeExpiredEvents(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  return deleteEventsBefore(db, new Date(now - retentionDays * 86_400_000).toISOString());
}
