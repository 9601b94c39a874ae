/**
 * Every difference between SQLite and PostgreSQL that the queries need lives here, so the
 * repositories stay dialect-free.
 */
import { type Expression, type Kysely, PostgresAdapter, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Which database a Kysely instance talks to. */
export function dialectOf<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column type for raw bytes. */
export function binaryType(dialect: DialectName): 'bytea' | 'blob' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/** Escapes LIKE wildcards so user input matches literally (used with `ESCAPE '\'`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Case-insensitive "contains". `lower(x) LIKE lower(pattern)` behaves the same on both databases
 * (SQLite's LIKE is only ASCII-case-insensitive, PostgreSQL's is case-sensitive).
 */
export function containsInsensitive(column: Expression<unknown>, value: string): Expression<SqlBool> {
  const pattern = `%${escapeLike(value.toLowerCase())}%`;
  return sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}

/** The smallest string above every string that starts with `prefix` (null: there is none). */
function prefixEnd(prefix: string): string | null {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return null;
}

/**
 * The member search (`search` of the member list): the user's display name, e-mail address or the
 * address's domain starts with `prefix` (given in lower case; e-mail addresses are stored so).
 * Each is a range over an expression indexed by migration 0015, in the same form as its index, so
 * both databases read only the users that match.
 */
export function memberSearchMatches(
  dialect: DialectName,
  user: { name: Expression<string>; email: Expression<string> },
  prefix: string,
): Expression<SqlBool> {
  const keys =
    dialect === 'postgres'
      ? [
          sql`(lower(${user.name}) collate "C")`,
          sql`(${user.email} collate "C")`,
          sql`(split_part(${user.email}, '@', 2) collate "C")`,
        ]
      : [sql`lower(${user.name})`, user.email, sql`substr(${user.email}, instr(${user.email}, '@') + 1)`];
  const end = prefixEnd(prefix);
  const ranges = keys.map((key) =>
    end === null ? sql`${key} >= ${prefix}` : sql`(${key} >= ${prefix} and ${key} < ${end})`,
  );
  return sql<SqlBool>`(${sql.join(ranges, sql` or `)})`;
}

/** COUNT results arrive as strings (bigint) from pg and as numbers from SQLite. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** Whether `error` is a unique-constraint violation from either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * Locks the rows a claiming SELECT returns so that concurrent claimers skip them instead of waiting
 * (`FOR UPDATE SKIP LOCKED`) on PostgreSQL. SQLite has no row locks and serializes writers, so
 * there the query is unchanged and the claim relies on a conditional UPDATE.
 */
export function forUpdateSkipLocked<DB, QB extends { forUpdate(): QB; skipLocked(): QB }>(
  db: Kysely<DB>,
  query: QB,
): QB {
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * `query` locking the rows it reads until the transaction ends: `FOR UPDATE` on PostgreSQL. SQLite
 * needs none: our single better-sqlite3 connection runs one transaction at a time.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db as Kysely<unknown>) === 'postgres' ? query.forUpdate() : query;
}
