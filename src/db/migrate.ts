/**
 * Runs the migrations in `./migrations` (listed explicitly in its index, in order) with Kysely's
 * Migrator. Called on start-up and by `bindery migrate`.
 */
import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
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
  return result;
}
