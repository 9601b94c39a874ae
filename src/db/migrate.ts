/**
 * Runs the migrations in `./migrations` (listed explicitly in its index, in order) with Kysely's
 * Migrator, then makes sure every PostgreSQL table has its change trigger (src/db/change-triggers.ts).
 * Called on start-up and by `bindery migrate`.
 */
import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { ensureChangeTriggers } from './change-triggers.js';
import { dialectOf } from './dialect.js';
import { migrations } from './migrations/index.js';

export async function migrateToLatest<T>(db: Kysely<T>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    // Areas add their own migrations, and a database may have run a later-numbered one first
    // (e.g. 0006 before 0003 landed); each area's tables are independent, so run what is missing.
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  // Every table, old or just added, notifies the other processes of its changes.
  if (dialectOf(db) === 'postgres') await ensureChangeTriggers(db);
  return result;
}
