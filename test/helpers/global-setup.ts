/**
 * With TEST_DATABASE_URL=postgres://… the suite runs against PostgreSQL: a fresh database is created
 * for the run, migrated once, handed to the test files, and dropped at the end. Without it every test
 * file uses its own in-memory SQLite database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureAppBuilt } from '../../src/web/build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  // The web app's files, served by every test server (built once here when missing or stale).
  await ensureAppBuilt((message) => process.stderr.write(`${message}\n`));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    project.provide('databaseUrl', null);
    return;
  }
  const name = `bindery_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  await migrateToLatest(db);
  await db.destroy();
  project.provide('databaseUrl', url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}
