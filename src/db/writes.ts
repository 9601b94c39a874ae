/**
 * Committed writes, counted at the driver: every statement that changes data, whoever sends it (a
 * service, a job, the test harness, a repair script in this process), is seen here, so caches keyed
 * by {@link WriteCounter.committed} (the response cache, src/http/response-cache.ts) cannot miss a
 * change made through this process's connections. Writes made by other processes are learnt
 * elsewhere (src/http/change-feed.ts).
 *
 * A write counts once its transaction has committed (a rolled-back one changed nothing), or at once
 * outside a transaction. Statements that change no row (an UPDATE matching nothing, as the idle job
 * poll's) do not count, and neither do bookkeeping writes that no response shows ({@link bookkeeping}).
 */
import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import type pg from 'pg';

export class WriteCounter {
  /** Committed writes so far; only ever grows. */
  committed = 0;
}

/**
 * Writes no API response depends on, so that they do not invalidate cached responses: the job
 * queue's own rows (claims, heartbeats, results) and the `last_used_at` of a token or a session,
 * written once a minute per token or session by authentication. As Kysely compiles them (`?` on SQLite, `$n` on PostgreSQL).
 */
const BOOKKEEPING = [
  /^\s*(insert\s+into|update|delete\s+from)\s+"jobs"[\s(]/i,
  /^\s*update\s+"api_tokens"\s+set\s+"last_used_at"\s*=\s*(\?|\$1)\s+where\s+"id"\s*=\s*(\?|\$2)\s*$/i,
  /^\s*update\s+"sessions"\s+set\s+"last_used_at"\s*=\s*(\?|\$1)\s+where\s+"id"\s*=\s*(\?|\$2)\s*$/i,
];

export function bookkeeping(sql: string): boolean {
  return BOOKKEEPING.some((pattern) => pattern.test(sql));
}

export type StatementKind = 'begin' | 'commit' | 'rollback' | 'read' | 'write';

/**
 * What a statement does to the data, from its text (for PostgreSQL, where the driver says nothing
 * of it before it runs). Conservative: whatever is not known to leave data alone is a write.
 */
export function classify(sql: string): StatementKind {
  const head = /^\s*([a-z]+)(?:\s+([a-z]+))?/i.exec(sql);
  const first = head?.[1]?.toLowerCase();
  const second = head?.[2]?.toLowerCase();
  switch (first) {
    case 'begin':
    case 'start':
      return 'begin';
    case 'commit':
    case 'end':
      return 'commit';
    case 'rollback':
      // `rollback to [savepoint] x` undoes part of a transaction that goes on: whatever it wrote
      // before the savepoint still commits, so the transaction stays as dirty as it was.
      return second === 'to' ? 'read' : 'rollback';
    case 'savepoint':
    case 'release':
    case 'select':
    case 'show':
    case 'set':
    case 'listen':
    case 'unlisten':
      return 'read';
    case 'with':
      // A data-modifying common table expression writes whatever the main statement is.
      return /\b(insert|update|delete|merge)\b/i.test(sql) ? 'write' : 'read';
    default:
      return bookkeeping(sql) ? 'read' : 'write';
  }
}

/** Whether a transaction on one connection has written; the counter moves when it commits. */
interface ConnectionState {
  inTransaction: boolean;
  dirty: boolean;
}

/**
 * SQLite: wraps the statements that may change data (better-sqlite3 knows which: `readonly`) and
 * the ends of transactions, so that committed changes move `counter`. Read statements are returned
 * as they are (no cost on reads).
 */
export function sqliteWriteTracking(
  sqlite: SQLite.Database,
  counter: WriteCounter,
): (sql: string, statement: SQLite.Statement) => SQLite.Statement | SqliteStatement {
  const state: ConnectionState = { inTransaction: false, dirty: false };
  const changed = () => {
    // better-sqlite3 knows whether the connection is inside a transaction (BEGIN, or a savepoint).
    if (sqlite.inTransaction) state.dirty = true;
    else counter.committed++;
  };
  return (sql, statement) => {
    const kind = classify(sql);
    if (kind === 'commit' || kind === 'rollback') {
      return {
        reader: false,
        all: (...args: unknown[]) => statement.all(...args),
        iterate: (...args: unknown[]) => statement.iterate(...args),
        run: (...args: unknown[]) => {
          const info = statement.run(...args);
          if (kind === 'commit' && state.dirty && !sqlite.inTransaction) counter.committed++;
          if (!sqlite.inTransaction) state.dirty = false;
          return info;
        },
      };
    }
    if (statement.readonly || bookkeeping(sql)) return statement;
    return {
      reader: statement.reader,
      all: (...args: unknown[]) => {
        const rows = statement.all(...args);
        if (rows.length > 0) changed(); // INSERT/UPDATE/DELETE … RETURNING: a row per change
        return rows;
      },
      iterate: (...args: unknown[]) => {
        changed();
        return statement.iterate(...args);
      },
      run: (...args: unknown[]) => {
        const info = statement.run(...args);
        if (info.changes > 0) changed();
        return info;
      },
    };
  };
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * PostgreSQL: wraps one pooled client's `query` so that committed changes move `counter`. The
 * statement's kind comes from its text ({@link classify}); whether it changed rows from pg's
 * `rowCount` (null for DDL and the like, which counts as a change).
 */
export function trackPgWrites(client: pg.PoolClient, counter: WriteCounter): void {
  const query = client.query.bind(client) as QueryFn;
  const state: ConnectionState = { inTransaction: false, dirty: false };
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const sql = typeof text === 'string' ? text : (text as { text?: unknown } | null)?.text;
    const result = query(text, ...rest);
    if (typeof sql !== 'string' || !isPromise(result)) return result;
    const kind = classify(sql);
    if (kind === 'read') return result;
    if (kind === 'begin') {
      state.inTransaction = true;
      state.dirty = false;
      return result;
    }
    return result.then((value) => {
      if (kind === 'commit') {
        if (state.dirty) counter.committed++;
        state.inTransaction = false;
        state.dirty = false;
      } else if (kind === 'rollback') {
        state.inTransaction = false;
        state.dirty = false;
      } else {
        const rows = (value as { rowCount?: number | null } | undefined)?.rowCount;
        if (rows === null || rows === undefined || rows > 0) {
          if (state.inTransaction) state.dirty = true;
          else counter.committed++;
        }
      }
      return value;
    });
  };
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === 'function';
}
