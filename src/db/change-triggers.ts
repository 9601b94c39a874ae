/**
 * PostgreSQL: every table tells the other Bindery processes that it changed. A statement trigger
 * on each table sends a notification on {@link CHANGES_CHANNEL} whose payload is the writing
 * connection's backend pid; PostgreSQL delivers it when (and only if) the transaction commits, once
 * per transaction and sender. Processes listening (src/http/change-feed.ts) drop what they keep in
 * memory. A trigger, rather than a NOTIFY sent by the application, also covers changes made by hand
 * or by scripts.
 *
 * A transaction of a Bindery process knows better what it changed (src/db/write-scope.ts): its
 * connection sets `bindery.notify` for the transaction (src/db/writes.ts), and then the trigger only
 * notes `bindery.changed`; the commit sends `<pid>:<scopes>` (or `<pid>:*`) itself when it is set,
 * so the other processes drop only what those scopes show. A payload without scopes (a script, a
 * manual change, an older process) stays global.
 *
 * {@link ensureChangeTriggers} runs after the migrations on every start, so tables added by later
 * migrations get their trigger without each migration having to remember it.
 */
import { type Kysely, sql } from 'kysely';

export const CHANGES_CHANNEL = 'bindery_changes';
const TRIGGER = 'bindery_changes';

/** Tables whose changes no response shows: the job queue, the migrator's bookkeeping. */
const UNWATCHED = new Set(['jobs', 'kysely_migration', 'kysely_migration_lock']);

/**
 * Columns whose updates are bookkeeping (as in src/db/writes.ts): a token's or session's `last_used_at`
 * is written once a minute per token or session in use and is shown nowhere a response is cached.
 */
const UNWATCHED_COLUMNS: Record<string, string[]> = { api_tokens: ['last_used_at'], sessions: ['last_used_at'] };

export async function ensureChangeTriggers<T>(db: Kysely<T>): Promise<void> {
  // One process at a time (several may start together on one database).
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${TRIGGER}))`.execute(trx);
    await installTriggers(trx);
  });
}

async function installTriggers<T>(db: Kysely<T>): Promise<void> {
  await sql`
    create or replace function bindery_notify_change() returns trigger language plpgsql as $$
    begin
      if current_setting('bindery.notify', true) = 'at-commit' then
        perform set_config('bindery.changed', '1', true);
      else
        perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, pg_backend_pid()::text);
      end if;
      return null;
    end $$`.execute(db);
  const tables = await sql<{ table: string; columns: string[]; watched: string[] | null }>`
    select c.relname as "table",
           array(select a.attname::text from pg_attribute a
                 where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns,
           (select array(select a.attname::text from pg_attribute a
                         where a.attrelid = c.oid and a.attnum = any(t.tgattr) order by a.attnum)
            from pg_trigger t where t.tgrelid = c.oid and t.tgname = ${TRIGGER}) as watched
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname = current_schema()`.execute(db);
  for (const { table, columns, watched } of tables.rows) {
    if (UNWATCHED.has(table)) continue;
    const skip = UNWATCHED_COLUMNS[table];
    // pg_trigger.tgattr lists the columns of `update of …`; empty for a trigger on every update.
    const wanted = skip ? columns.filter((c) => !skip.includes(c)) : [];
    if (watched && watched.join() === wanted.join()) continue;
    const update = wanted.length > 0 ? sql`update of ${sql.join(wanted.map((c) => sql.id(c)))}` : sql`update`;
    await sql`drop trigger if exists ${sql.id(TRIGGER)} on ${sql.id(table)}`.execute(db);
    await sql`
      create trigger ${sql.id(TRIGGER)} after insert or ${update} or delete or truncate on ${sql.id(table)}
      for each statement execute function bindery_notify_change()`.execute(db);
  }
}
