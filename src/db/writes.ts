/**
 * Committed writes, counted at the driver: every statement that changes data, whoever sends it (a
 * service, a job, the test harness, a repair script in this process), is seen here, so caches that
 * read {@link WriteCounter} (the response cache, src/http/response-cache.ts) cannot miss a change
 * made through this process's connections. Each commit is counted on its scopes (the organizations
 * and members it changed, src/db/write-scope.ts), or as global when they are not known. Writes
 * made by other processes are learnt elsewhere (src/http/change-feed.ts) and counted here too.
 *
 * A write counts once its transaction has committed (a rolled-back one changed nothing), or at once
 * outside a transaction. Statements that change no row (an UPDATE matching nothing, as the idle job
 * poll's) do not count, and neither do bookkeeping writes that no response shows ({@link bookkeeping}).
 */
import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import type pg from 'pg';
import { CHANGES_CHANNEL } from './change-triggers.js';
import { noteRead, watchedTablesIn } from './scope-parts.js';
import { scopesAtCommit, WrittenTables } from './write-scope.js';

/** Past this many scopes remembered, they are forgotten and the next write counts as global. */
const MAX_SCOPES = 100_000;

/**
 * When each scope last changed, on one clock ({@link committed}) that moves with every committed change:
 * something computed at tick `t` from data of scopes `S` is current while neither a global change
 * nor a change of a scope in `S` came after `t` ({@link unchangedSince}).
 */
export class WriteCounter {
  /** Committed changes so far, whatever their scope; only ever grows. */
  committed = 0;
  /** The tick of the last change of unknown scope (it may have changed anything). */
  everything = 0;
  private readonly scopes = new Map<string, number>();

  /** Counts one committed change of `scopes` (null: unknown, global). */
  commit(scopes: readonly string[] | null): void {
    this.committed++;
    if (scopes === null || this.scopes.size + scopes.length > MAX_SCOPES) {
      // Forgetting scopes is safe only with a global change: their ticks go back to 0.
      if (scopes !== null) this.scopes.clear();
      this.everything = this.committed;
      return;
    }
    for (const scope of scopes) this.scopes.set(scope, this.committed);
  }

  /** Whether nothing that `scopes` depends on changed after `since` (null: depends on everything). */
  unchangedSince(since: number, scopes: readonly string[] | null): boolean {
    if (this.everything > since) return false;
    if (scopes === null) return this.committed <= since;
    for (const scope of scopes) if ((this.scopes.get(scope) ?? 0) > since) return false;
    return true;
  }

  /**
   * For diagnosis (src/http/cache-diagnosis.ts): a dependency among `scopes` that changed after
   * `since`, `*` for a global change, null for a change of anything when `scopes` is null.
   */
  changedDependency(since: number, scopes: readonly string[] | null): string | null {
    if (this.everything > since) return '*';
    if (scopes === null) return null;
    return scopes.find((scope) => (this.scopes.get(scope) ?? 0) > since) ?? null;
  }
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
      return classifyWith(sql);
    default:
      return bookkeeping(sql) ? 'read' : 'write';
  }
}

/** The kinds of `with` statements already classified, by SQL text (bounded: texts with `in (…)` lists vary). */
const withKinds = new Map<string, StatementKind>();
const WITH_KINDS_LIMIT = 1_000;

/**
 * A data-modifying common table expression writes whatever the main statement is. The test scans
 * the whole text (a page's viewers query is ~2 KB; the scan was ~1 % of a member page's CPU on
 * PostgreSQL), so its answer is kept per text: a precompiled query sends the same string each time,
 * whose hash V8 keeps, so the lookup costs no scan.
 */
function classifyWith(sql: string): StatementKind {
  let kind = withKinds.get(sql);
  if (kind === undefined) {
    kind = /\b(insert|update|delete|merge)\b/i.test(sql) ? 'write' : 'read';
    if (withKinds.size < WITH_KINDS_LIMIT) withKinds.set(sql, kind);
  }
  return kind;
}

/** Whether a transaction on one connection has written, and what; the counter moves when it commits. */
interface ConnectionState {
  inTransaction: boolean;
  dirty: boolean;
  written: WrittenTables;
}

/**
 * SQLite: wraps the statements that may change data (better-sqlite3 knows which: `readonly`) and
 * the ends of transactions, so that committed changes move `counter`. Read statements are returned
 * as they are (no cost on reads), but for those naming a part table, which note it first.
 */
export function sqliteWriteTracking(
  sqlite: SQLite.Database,
  counter: WriteCounter,
): (sql: string, statement: SQLite.Statement) => SQLite.Statement | SqliteStatement {
  const state: ConnectionState = { inTransaction: false, dirty: false, written: new WrittenTables() };
  const changed = (sql: string, rows: number | undefined) => {
    // better-sqlite3 knows whether the connection is inside a transaction (BEGIN, or a savepoint).
    if (sqlite.inTransaction) {
      state.dirty = true;
      state.written.note(sql, rows);
    } else {
      const written = new WrittenTables();
      written.note(sql, rows);
      counter.commit(scopesAtCommit(written));
    }
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
          if (kind === 'commit' && state.dirty && !sqlite.inTransaction) counter.commit(scopesAtCommit(state.written));
          if (!sqlite.inTransaction) {
            state.dirty = false;
            state.written.clear();
          }
          return info;
        },
      };
    }
    if (statement.readonly) {
      // A read of a part table tells the answer being computed what it showed (db/scope-parts.ts).
      const tables = watchedTablesIn(sql);
      if (tables.length === 0) return statement;
      return {
        reader: statement.reader,
        all: (...args: unknown[]) => {
          noteRead(tables);
          return statement.all(...args);
        },
        iterate: (...args: unknown[]) => {
          noteRead(tables);
          return statement.iterate(...args);
        },
        run: (...args: unknown[]) => {
          noteRead(tables);
          return statement.run(...args);
        },
      };
    }
    if (bookkeeping(sql)) return statement;
    return {
      reader: statement.reader,
      all: (...args: unknown[]) => {
        const rows = statement.all(...args);
        if (rows.length > 0) changed(sql, rows.length); // INSERT/UPDATE/DELETE … RETURNING: a row per change
        return rows;
      },
      iterate: (...args: unknown[]) => {
        changed(sql, undefined);
        return statement.iterate(...args);
      },
      run: (...args: unknown[]) => {
        const info = statement.run(...args);
        if (info.changes > 0) changed(sql, info.changes);
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
 *
 * It also tells the other processes what a transaction changed: `begin` sets `bindery.notify` for
 * the transaction, so the change triggers (src/db/change-triggers.ts) only note that a table
 * changed instead of notifying with no scope, and `commit` is preceded by the notification with the
 * transaction's scopes (`<pid>:<scopes>`, or `<pid>:*` when global), sent only when a trigger
 * fired. Both ride in the statement's own round trip (simple protocol: no parameters).
 */
export function trackPgWrites(client: pg.PoolClient, counter: WriteCounter): void {
  const query = client.query.bind(client) as QueryFn;
  const state: ConnectionState & { notifyAtCommit: boolean } = {
    inTransaction: false,
    dirty: false,
    written: new WrittenTables(),
    notifyAtCommit: false,
  };
  const reset = () => {
    state.inTransaction = false;
    state.dirty = false;
    state.written.clear();
    state.notifyAtCommit = false;
  };
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const sql = typeof text === 'string' ? text : (text as { text?: unknown } | null)?.text;
    if (typeof sql !== 'string') return query(text, ...rest);
    const kind = classify(sql);
    const plain = typeof text === 'string' && rest.length <= 1 && (rest[0] === undefined || isEmpty(rest[0]));
    if (kind === 'begin') {
      reset();
      state.inTransaction = true;
      if (!plain) return query(text, ...rest);
      state.notifyAtCommit = true;
      return lastResult(query(`${sql}; select set_config('bindery.notify', 'at-commit', true)`));
    }
    if (kind === 'commit') {
      const scopes = state.dirty ? scopesAtCommit(state.written) : null;
      const sent =
        state.notifyAtCommit && plain ? lastResult(query(`${notifyStatement(scopes)}; ${sql}`)) : query(text, ...rest);
      const dirty = state.dirty;
      reset();
      if (!isPromise(sent)) return sent;
      return sent.then((value) => {
        if (dirty) counter.commit(scopes);
        return value;
      });
    }
    if (kind === 'read') noteRead(watchedTablesIn(sql));
    const result = query(text, ...rest);
    if (kind === 'read' || !isPromise(result)) return result;
    return result.then((value) => {
      if (kind === 'rollback') reset();
      else {
        const rows = (value as { rowCount?: number | null } | undefined)?.rowCount;
        if (rows === null || rows === undefined || rows > 0) {
          const count = rows ?? undefined;
          if (state.inTransaction) {
            state.dirty = true;
            state.written.note(sql, count);
          } else {
            const written = new WrittenTables();
            written.note(sql, count);
            counter.commit(scopesAtCommit(written));
          }
        }
      }
      return value;
    });
  };
}

/** Longest scope list a notification carries (pg_notify takes under 8000 bytes); longer: global. */
const MAX_PAYLOAD = 7_000;

/** The notification of a transaction's commit, sent only if a change trigger fired in it. */
function notifyStatement(scopes: readonly string[] | null): string {
  let list = scopes === null ? '*' : scopes.join(',');
  if (list.length > MAX_PAYLOAD || !/^[A-Za-z0-9_:,.-]*$/.test(list)) list = '*';
  return (
    `select pg_notify('${CHANGES_CHANNEL}', pg_backend_pid()::text || ':${list}') ` +
    `where current_setting('bindery.changed', true) = '1'`
  );
}

function isEmpty(values: unknown): boolean {
  return Array.isArray(values) && values.length === 0;
}

/** A multi-statement query answers one result per statement: the caller sent one, its own is the last. */
function lastResult(result: unknown): unknown {
  if (!isPromise(result)) return result;
  return result.then((value) => (Array.isArray(value) ? value[value.length - 1] : value));
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === 'function';
}
