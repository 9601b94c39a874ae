/**
 * Opens the database named by `DATABASE_URL`: SQLite through better-sqlite3 (the embedded default)
 * or PostgreSQL through pg.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';
import type pg from 'pg';
import { RecencyMap } from '../lib/recency-map.js';
import type { Database } from './schema.js';
import { sqliteWriteTracking, trackPgWrites, WriteCounter } from './writes.js';

export type Db = Kysely<Database>;

let pgModule: typeof pg | undefined;

/**
 * The pg module, loaded on first use: a SQLite installation never needs it (about 14 MB of idle
 * memory). `require`, so that `createDb` stays synchronous.
 */
export function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // COUNT(*) and other int8 values: parse to JS numbers (our counts stay far below 2^53).
    pgModule.types.setTypeParser(pgModule.types.builtins.INT8, (value) => Number(value));
  }
  return pgModule;
}

let sqliteModule: typeof SQLite | undefined;

/** better-sqlite3, loaded on first use like pg: a PostgreSQL installation never needs it (its native addon). */
export function loadSqlite(): typeof SQLite {
  sqliteModule ??= createRequire(import.meta.url)('better-sqlite3') as typeof SQLite;
  return sqliteModule;
}

/**
 * The driver under a Db: metrics read the pool's state, backups use SQLite's online backup, and
 * precompiled reads run on SQLite's cached statements directly ({@link readNowOnSqlite}).
 */
export type DriverHandle = { writes: WriteCounter } & (
  | {
      kind: 'postgres';
      pool: pg.Pool;
      connectionString: string;
      /** Backend process ids of the pool's connections (change notifications name their sender). */
      pids: Set<number>;
    }
  | { kind: 'sqlite'; database: SQLite.Database; statement(sql: string): SqliteStatement }
);
const handles = new WeakMap<Db, DriverHandle>();

/** The driver handle of a Db made by {@link createDb} (undefined for one made elsewhere). */
export function driverOf(db: Db): DriverHandle | undefined {
  return handles.get(db);
}

/**
 * SQLite: runs the read `sql` at once on the connection's cached statement, when `db` is the
 * application's Db (not a transaction) and no transaction holds the connection — skipping Kysely's
 * driver (its connection mutex and promise turns), a sixth of a simple precompiled read's cost.
 * Safe because better-sqlite3 runs a statement to completion synchronously: the only state another
 * caller can leave the connection in across an `await` is an open transaction, whose uncommitted
 * rows this must not read (then, and on PostgreSQL, it answers undefined: go through Kysely).
 */
export function readNowOnSqlite<R>(db: Db, sql: string, parameters: readonly unknown[]): R[] | undefined {
  const handle = handles.get(db);
  if (handle?.kind !== 'sqlite' || handle.database.inTransaction || !handle.database.open) return undefined;
  const statement = handle.statement(sql);
  return statement.reader ? (statement.all(parameters) as R[]) : undefined;
}

/** The backend process id pg learnt when the client connected (BackendKeyData). */
function pidOf(client: pg.PoolClient): number {
  return (client as unknown as { processID: number }).processID;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export function sqliteFile(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '');
}

/** Creates the Kysely instance for `databaseUrl`; for SQLite files the folder is created. */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  if (isPostgresUrl(databaseUrl)) {
    const pool = new (loadPg().Pool)({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      // PostgreSQL's default random_page_cost (4) prices reads as from a spinning disk, so its
      // planner scans every search passage rather than use the full-text and trigram indexes: an
      // organization search over 10,000 passages took 16–78 ms per query scanning, 2–7 ms through
      // the indexes. 1.1 is the usual value for SSDs and cached data; an `options` in the URL wins.
      ...(new URL(databaseUrl).searchParams.has('options') ? {} : { options: '-c random_page_cost=1.1' }),
    });
    // An idle connection dropped by the server (restart, failover, idle timeout) must not take the
    // process down: the pool discards it and opens another on the next query.
    pool.on('error', (error) => {
      process.emitWarning(`PostgreSQL connection lost: ${error.message}`);
    });
    const writes = new WriteCounter();
    const pids = new Set<number>();
    pool.on('connect', (client) => {
      namePreparedStatements(client);
      trackPgWrites(client, writes);
      pids.add(pidOf(client));
    });
    pool.on('remove', (client) => pids.delete(pidOf(client)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    handles.set(db, { kind: 'postgres', pool, connectionString: databaseUrl, pids, writes });
    return db;
  }
  const file = sqliteFile(databaseUrl);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new (loadSqlite())(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Let SQLite gather the statistics its planner needs (as its documentation advises on open);
  // without them it picks poor join orders on large organizations.
  sqlite.pragma('analysis_limit = 400');
  sqlite.pragma('optimize = 0x10002');
  // Gathering them reads pages into this connection's page cache (better-sqlite3 builds SQLite with
  // a 16 MB one), pages the requests to come may never need: give that memory back now, as start-up
  // memory is (src/http/memory.ts). On a freshly loaded 100,000-member database the idle server
  // held 119–122 MB with them, 110–112 MB without.
  sqlite.pragma('shrink_memory');
  // And again while it runs (SQLite advises it for long-lived connections): statistics taken when
  // a table was small make the planner scan it once it is large (a new installation invited 100k
  // members, then every e-mail lookup scanned users). Cheap when nothing grew ten-fold; never
  // inside another statement's transaction.
  const refresh = setInterval(() => {
    if (sqlite.open && !sqlite.inTransaction) sqlite.pragma('optimize');
  }, SQLITE_OPTIMIZE_EVERY_MS);
  refresh.unref();
  const writes = new WriteCounter();
  const { database, statement } = cachingStatements(sqlite, sqliteWriteTracking(sqlite, writes), () =>
    clearInterval(refresh),
  );
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  handles.set(db, { kind: 'sqlite', database: sqlite, statement, writes });
  return db;
}

const SQLITE_OPTIMIZE_EVERY_MS = 60_000;

/** Statements kept per SQLite handle; past this the least recently used goes (src/lib/recency-map.ts). */
const SQLITE_STATEMENTS = 500;

/**
 * Kysely's SQLite driver calls `prepare` for every query it runs, and preparing cost about a quarter
 * of the CPU of a simple read. Kysely emits the same SQL text for the same query shape, so a
 * prepared statement is kept per SQL text and reused. Reusing one is safe: the single
 * connection runs one query at a time (Kysely's driver holds a mutex, also while streaming).
 */
function cachingStatements(
  sqlite: SQLite.Database,
  track: (text: string, statement: SQLite.Statement) => SqliteStatement,
  onClose: () => void,
): { database: SqliteDatabase; statement(text: string): SqliteStatement } {
  const statements = new RecencyMap<string, SqliteStatement>();
  function statementFor(text: string): SqliteStatement {
    let statement = statements.get(text);
    if (statement === undefined) {
      // Statements that may write come back wrapped, counting committed changes (db/writes.ts).
      statement = track(text, sqlite.prepare(text));
      if (statements.size >= SQLITE_STATEMENTS) statements.evict();
      statements.set(text, statement);
    }
    return statement;
  }
  return {
    database: {
      prepare: statementFor,
      close() {
        onClose();
        statements.clear();
        sqlite.close();
      },
    },
    statement: statementFor,
  };
}

/** Distinct SQL texts given a name (so a prepared statement) in this process; the rest run unnamed. */
const PG_NAMED_LIMIT = 2_000;
const pgStatementNames = new Map<string, string>();
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * On PostgreSQL, a query sent with a name is parsed and planned once per connection and only bound
 * and executed afterwards (pg keeps the names each connection has prepared). Kysely sends
 * `client.query(text, values)`, so each connection's `query` gives the text a stable name. The
 * number of names is bounded: queries with `in (…)` lists of every length make many texts, and
 * each named statement holds memory on the server for the connection's life.
 */
function namePreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !Array.isArray(values) || rest.length > 0 || !PREPARABLE.test(text)) {
      return query(text, values, ...rest);
    }
    let name = pgStatementNames.get(text);
    if (name === undefined && pgStatementNames.size < PG_NAMED_LIMIT) {
      name = `bindery_${pgStatementNames.size}`;
      pgStatementNames.set(text, name);
    }
    return name === undefined ? query(text, values) : queryNamed(query, name, text, values);
  };
}

/**
 * `query({ name, text, values })` without its cost: given a config object, pg copies it property by
 * property (`cloneQueryConfig`, with property descriptors), ~1.3 % of the CPU of an uncached single
 * read. A Query built from the text (no copy) and named afterwards is sent the same way (a named
 * Query is always prepared, `requiresPreparation`); given a Query, `client.query` returns it, so the
 * promise is made here, as pg makes it for a text.
 */
function queryNamed(
  query: (...args: unknown[]) => unknown,
  name: string,
  text: string,
  values: unknown[],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const submitted = new (loadPg().Query)(text, values, (error, result) => (error ? reject(error) : resolve(result)));
    (submitted as { name?: string }).name = name;
    query(submitted);
  });
}
