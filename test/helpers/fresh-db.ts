/**
 * A database of a test's own, for tests that run a job worker, restart a server or restore a backup
 * (the run's shared PostgreSQL database would mix their rows with other files'): on PostgreSQL a new
 * database on the run's server (dropped by `drop()`), on SQLite a file in a temporary folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export interface FreshDatabase {
  /** A `DATABASE_URL`: a `postgres://` URL or a SQLite file path. */
  url: string;
  postgres: boolean;
  /** The folder of the SQLite file (a temporary folder on PostgreSQL too, for other files). */
  dir: string;
  drop(): Promise<void>;
}

export async function freshDatabase(label: string): Promise<FreshDatabase> {
  const shared = inject('databaseUrl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bindery-${label}-`));
  if (!shared) {
    return {
      url: path.join(dir, `${label}.sqlite`),
      postgres: false,
      dir,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `bindery_${label.replace(/\W/g, '_')}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    postgres: true,
    dir,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: shared });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
