/**
 * The member list's `search` (src/api/members/repo.ts): a prefix of the display name, of the e-mail
 * address or of its domain, case-insensitively. Each of the three is an index on the expression the
 * query compares (see `memberSearchKeys` in ../dialect.ts), so a search reads the matching users
 * only instead of every member of the organization.
 *
 * PostgreSQL compares them in the "C" collation: a range `>= prefix and < next prefix` is a
 * prefix match only byte by byte, and only then can its index answer it whatever the database's
 * locale. SQLite compares text byte by byte already.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create index users_search_name on users ((lower(display_name) collate "C"))`.execute(db);
    await sql`create index users_search_email on users ((email collate "C"))`.execute(db);
    await sql`create index users_search_domain on users ((split_part(email, '@', 2) collate "C"))`.execute(db);
  } else {
    // The e-mail address itself is compared through the index of its unique constraint.
    await sql`create index users_search_name on users (lower(display_name))`.execute(db);
    await sql`create index users_search_domain on users (substr(email, instr(email, '@') + 1))`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['users_search_name', 'users_search_email', 'users_search_domain']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
