/**
 * Idempotency-Key answers are kept sealed from now on (src/http/idempotency.ts): the answers kept
 * before, in clear for up to a day, are deleted, since some hold secrets shown only once (a webhook's
 * signing secret). A retry of one of those requests runs it again, as after the key expires.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_keys where body is not null and body not like 'v1.%'`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to restore: the deleted answers are gone, and sealed ones are left as they are.
}
