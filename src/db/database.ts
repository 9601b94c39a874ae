/**
 * Opens the database named by `DATABASE_URL`: SQLite through better-sqlite3 (the embedded default)
 * or PostgreSQL through pg.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

// COUNT(*) and other int8 values: parse to JS numbers (our counts stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** The driver under a Db: metrics read the pool's state, backups use SQLite's online backup. */
export type DriverHandle = { kind: 'postgres'; pool: pg.Pool } | { kind: 'sqlite'; database: SQLite.Database };
const handles = new WeakMap<Db, DriverHandle>();

/** The driver handle of a Db made by {@link createDb} (undefined for one made elsewhere). */
export function driverOf(db: Db): DriverHandle | undefined {
  return handles.get(db);
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
    const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover, idle timeout) must not take the
    // process down: the pool discards it and opens another on the next query.
    pool.on('error', (error) => {
      process.emitWarning(`PostgreSQL connection lost: ${error.message}`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    handles.set(db, { kind: 'postgres', pool });
    return db;
  }
  const file = sqliteFile(databaseUrl);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Let SQLite gather the statistics its planner needs (as its documentation advises on open);
  // without them it picks poor join orders on large organizations.
  sqlite.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  handles.set(db, { kind: 'sqlite', database: sqlite });
  return db;
}
