/**
 * A database of a test's own, for tests that run job workers or delete across the whole database
 * (on the run's shared PostgreSQL database they would touch other files' rows): a new PostgreSQL
 * database on the run's server, else a SQLite file in a temporary folder. `drop()` removes it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export async function ownDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = inject('databaseUrl');
  if (!shared) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bindery-${label}-`));
    return {
      url: path.join(dir, `${label}.sqlite`),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `bindery_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const run = async (query: string) => {
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await run(`create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
