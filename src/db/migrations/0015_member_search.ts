/**
 * Indexes for the member search (`GET …/members?search=`: a case-insensitive substring of the
 * user's display name or e-mail), which otherwise scans every member: ~150 ms at 100k members.
 *
 * PostgreSQL: trigram GIN indexes on `lower(display_name)` and `lower(email)`, which the planner
 * uses for `lower(x) LIKE '%abc%'` as the query is written today (patterns of 3+ characters). They
 * need the pg_trgm extension; where it cannot be created (not installed, or no privilege: it is
 * trusted since PostgreSQL 13, so a database owner may create it) the migration succeeds without
 * them and search scans as before.
 *
 * SQLite: an FTS5 trigram index of users(display_name, email), external content (it stores no copy
 * of the text), kept in sync by triggers. It is keyed by the users table's implicit rowid, which a
 * VACUUM may renumber: after one, run `insert into users_fts(users_fts) values ('rebuild')`. The
 * search keeps its LIKE as the exact filter, so a stale index can miss rows but never add wrong ones.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') await createTrigramIndexes(db);
  else await createUsersFts(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index if exists users_display_name_trgm`.execute(db);
    await sql`drop index if exists users_email_trgm`.execute(db);
    return;
  }
  for (const t of ['users_fts_insert', 'users_fts_delete', 'users_fts_update']) {
    await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await sql`drop table if exists users_fts`.execute(db);
}

/** Creates pg_trgm if it can, and the trigram indexes if the extension is there. */
async function createTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  await tryCreateExtension(db, 'pg_trgm');
  // Installed by us or beforehand (e.g. by a superuser, in a schema on the search path).
  const installed = await sql<{ n: number }>`
    select count(*)::int as n from pg_opclass where opcname = 'gin_trgm_ops' and pg_opclass_is_visible(oid)`.execute(
    db,
  );
  if ((installed.rows[0]?.n ?? 0) === 0) return;
  await sql`create index if not exists users_display_name_trgm on users using gin (lower(display_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index if not exists users_email_trgm on users using gin (lower(email) gin_trgm_ops)`.execute(db);
}

/**
 * `create extension if not exists <name>` in the migration's transaction, under a savepoint: when it
 * fails (not installed on the server, or no privilege) it is undone alone instead of aborting the
 * transaction, and the migration goes on. Returns whether it succeeded.
 */
export async function tryCreateExtension(db: Kysely<unknown>, name: string): Promise<boolean> {
  await sql`savepoint create_extension`.execute(db);
  try {
    await sql`create extension if not exists ${sql.id(name)}`.execute(db);
    await sql`release savepoint create_extension`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint create_extension`.execute(db);
    return false;
  }
}

async function createUsersFts(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table users_fts using fts5(
    display_name, email, content='users', content_rowid='rowid', tokenize='trigram')`.execute(db);
  await sql`insert into users_fts(users_fts) values ('rebuild')`.execute(db);
  await sql`create trigger users_fts_insert after insert on users begin
    insert into users_fts(rowid, display_name, email) values (new.rowid, new.display_name, new.email);
  end`.execute(db);
  await sql`create trigger users_fts_delete after delete on users begin
    insert into users_fts(users_fts, rowid, display_name, email) values ('delete', old.rowid, old.display_name, old.email);
  end`.execute(db);
  // Only when a searched column changes: photo and other updates leave the index alone.
  await sql`create trigger users_fts_update after update of display_name, email on users begin
    insert into users_fts(users_fts, rowid, display_name, email) values ('delete', old.rowid, old.display_name, old.email);
    insert into users_fts(rowid, display_name, email) values (new.rowid, new.display_name, new.email);
  end`.execute(db);
}
