/**
 * `bindery backup` and `bindery restore`. SQLite: the online backup API, so a backup is a consistent
 * snapshot even while a server writes (SQLite restarts the copy if the source changes between two
 * steps; we copy everything in one step after the first, within one read transaction). A restore
 * replaces the database file only when no process has it open, and only with a Bindery database.
 * PostgreSQL has its own tools: both commands print the `pg_dump`/`pg_restore` command instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { loadSqlite, sqliteFile } from './database.js';
import { migrations } from './migrations/index.js';

/** A refusal to explain to the operator (the CLI prints the message, exit code 1). */
export class BackupError extends Error {}

export interface SqliteResult {
  file: string;
  bytes: number;
  migrations: number;
}

/** The PostgreSQL command to run instead, for `DATABASE_URL`, with the password left out. */
export interface PostgresAdvice {
  command: string;
  note: string;
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `DATABASE_URL` without its password (pg_dump reads it from PGPASSWORD or ~/.pgpass). */
function withoutPassword(databaseUrl: string): { url: string; hadPassword: boolean } {
  const url = new URL(databaseUrl);
  const hadPassword = url.password !== '';
  url.password = '';
  return { url: url.toString(), hadPassword };
}

export function postgresAdvice(databaseUrl: string, action: 'backup' | 'restore', file: string): PostgresAdvice {
  const { url, hadPassword } = withoutPassword(databaseUrl);
  const command =
    action === 'backup'
      ? `pg_dump --format=custom --no-owner --file=${quote(file)} --dbname=${quote(url)}`
      : `pg_restore --clean --if-exists --no-owner --exit-on-error --dbname=${quote(url)} ${quote(file)}`;
  const password = hadPassword
    ? ' The password of DATABASE_URL is not shown: set PGPASSWORD (or ~/.pgpass) first.'
    : '';
  const note =
    action === 'backup'
      ? `DATABASE_URL is PostgreSQL: back it up with pg_dump (consistent while the server runs).${password}`
      : `DATABASE_URL is PostgreSQL: restore a pg_dump archive with pg_restore, with the Bindery servers stopped.${password}`;
  return { command, note };
}

/** The SQLite file of `databaseUrl`; a PostgreSQL URL or an in-memory database is refused by the caller. */
function sqlitePath(databaseUrl: string): string {
  const file = sqliteFile(databaseUrl);
  if (file === ':memory:') throw new BackupError('DATABASE_URL is an in-memory database: there is nothing to back up');
  return path.resolve(file);
}

/** Opens `file` read-only and checks that it is a Bindery database this version can run; returns its migrations. */
function checkBinderyDatabase(file: string): number {
  let db: SQLite.Database;
  try {
    db = new (loadSqlite())(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    let names: string[];
    try {
      names = (db.prepare('select name from kysely_migration').all() as { name: string }[]).map((r) => r.name);
    } catch (error) {
      const reason =
        (error as { code?: string }).code === 'SQLITE_NOTADB' ? 'not a SQLite database' : 'no migrations table';
      throw new BackupError(`${file} is not a Bindery database (${reason})`);
    }
    if (!names.includes('0001_foundation')) throw new BackupError(`${file} is not a Bindery database (no migrations)`);
    const unknown = names.filter((n) => !(n in migrations));
    if (unknown.length > 0) {
      throw new BackupError(`${file} was made by a newer Bindery (migrations ${unknown.join(', ')}): upgrade first`);
    }
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} is damaged (quick_check: ${String(check)})`);
    return names.length;
  } finally {
    db.close();
  }
}

/** Copies the whole database into `dest` with the online backup API. */
async function copy(source: SQLite.Database, dest: string): Promise<void> {
  // After the first step (100 pages) copy the rest at once: one step reads one snapshot, and a
  // writer between small steps would make SQLite start over (forever under steady writes).
  await source.backup(dest, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
}

/** `bindery backup <file>` on SQLite: a consistent copy, safe while a server runs on the database. */
export async function backupSqlite(databaseUrl: string, destination: string): Promise<SqliteResult> {
  const file = sqlitePath(databaseUrl);
  const dest = path.resolve(destination);
  if (!fs.existsSync(file)) throw new BackupError(`no database at ${file} (DATABASE_URL)`);
  if (fs.existsSync(dest)) throw new BackupError(`${dest} exists: remove it or choose another file name`);
  checkBinderyDatabase(file);
  const source = new (loadSqlite())(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await copy(source, dest);
  } catch (error) {
    fs.rmSync(dest, { force: true });
    throw error;
  } finally {
    source.close();
  }
  const count = checkBinderyDatabase(dest);
  return { file: dest, bytes: fs.statSync(dest).size, migrations: count };
}

/**
 * Whether a process has the SQLite database open: leaving WAL mode needs the only connection, so
 * SQLite refuses (busy) while a server (or anything else) holds it. A server killed with kill -9 holds
 * nothing. Leaves the file in rollback-journal mode, which does not matter: the restore replaces it.
 */
function inUse(file: string): boolean {
  const db = new (loadSqlite())(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    return db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete';
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    db.close();
  }
}

/** `bindery restore <file>` on SQLite: replaces the database with a backup, with no server on it. */
export async function restoreSqlite(databaseUrl: string, backup: string): Promise<SqliteResult> {
  const file = sqlitePath(databaseUrl);
  const from = path.resolve(backup);
  if (!fs.existsSync(from)) throw new BackupError(`no backup at ${from}`);
  if (from === file) throw new BackupError(`${from} is the database itself (DATABASE_URL)`);
  const count = checkBinderyDatabase(from);
  if (fs.existsSync(file) && inUse(file)) {
    throw new BackupError(
      `${file} is in use by another process (a running Bindery server?): stop it, then run bindery restore again`,
    );
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written beside the database, then renamed over it: a restore cut short leaves the old database whole.
  const temporary = `${file}.restoring`;
  fs.rmSync(temporary, { force: true });
  const source = new (loadSqlite())(from, { readonly: true, fileMustExist: true });
  try {
    await copy(source, temporary);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  } finally {
    source.close();
  }
  for (const leftover of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(leftover, { force: true });
  fs.renameSync(temporary, file);
  return { file, bytes: fs.statSync(file).size, migrations: count };
}
