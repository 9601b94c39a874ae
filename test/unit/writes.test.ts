/**
 * Committed writes are counted at the driver (src/db/writes.ts), on the run's database: a write
 * counts once it has committed, not before, never when rolled back or when it changed no row, and
 * bookkeeping writes (the job queue, a token's last use) do not count.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db, driverOf } from '../../src/db/database.js';
import { classify } from '../../src/db/writes.js';

describe('classify', () => {
  it.each([
    ['begin', 'begin'],
    ['START TRANSACTION', 'begin'],
    ['commit', 'commit'],
    ['rollback', 'rollback'],
    ['rollback to savepoint "s1"', 'read'],
    ['savepoint "s1"', 'read'],
    ['release savepoint "s1"', 'read'],
    ['select * from "spaces" where "id" = $1 for update', 'read'],
    ['with x as (select 1) select * from x', 'read'],
    ['with x as (update "spaces" set "title" = $1 returning *) select * from x', 'write'],
    ['insert into "spaces" ("id") values ($1)', 'write'],
    ['update "spaces" set "title" = $1', 'write'],
    ['delete from "spaces"', 'write'],
    ['create table t (id int)', 'write'],
    ['insert into "jobs" ("id", "kind") values (?, ?)', 'read'],
    ['update "jobs" set "state" = $1 where "id" = $2', 'read'],
    ['update "api_tokens" set "last_used_at" = $1 where "id" = $2', 'read'],
    ['update "api_tokens" set "revoked_at" = ? where "id" = ?', 'write'],
  ])('%s → %s', (text, kind) => {
    expect(classify(text)).toBe(kind);
  });
});

describe('write counting', () => {
  const url = inject('databaseUrl') ?? ':memory:';
  const table = `writes_${randomBytes(4).toString('hex')}`;
  let db: Db;
  const committed = () => driverOf(db)?.writes.committed as number;
  const insert = (d: Db) =>
    sql`insert into ${sql.id(table)} (id) values (${randomBytes(4).toString('hex')})`.execute(d);

  beforeAll(async () => {
    db = createDb(url, { poolSize: 2 });
    await sql`create table ${sql.id(table)} (id varchar(20) primary key, n integer)`.execute(db);
  });
  afterAll(async () => {
    await sql`drop table if exists ${sql.id(table)}`.execute(db);
    await db.destroy();
  });

  it('counts a write outside a transaction at once', async () => {
    const before = committed();
    await insert(db);
    expect(committed()).toBe(before + 1);
  });

  it('counts a transaction that wrote once it commits, not before', async () => {
    const before = committed();
    await db.transaction().execute(async (trx) => {
      await sql`insert into ${sql.id(table)} (id) values ('t1')`.execute(trx);
      await sql`insert into ${sql.id(table)} (id) values ('t2')`.execute(trx);
      expect(committed()).toBe(before);
    });
    expect(committed()).toBe(before + 1);
  });

  it('does not count a rolled-back transaction, a read-only one, or a write that changed no row', async () => {
    const before = committed();
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into ${sql.id(table)} (id) values ('never')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    await db.transaction().execute(async (trx) => {
      await sql`select * from ${sql.id(table)}`.execute(trx);
    });
    await sql`update ${sql.id(table)} set n = 1 where id = 'no-such-row'`.execute(db);
    await sql`delete from ${sql.id(table)} where id = 'no-such-row' returning id`.execute(db);
    expect(committed()).toBe(before);
  });

  it('counts INSERT … RETURNING and an UPDATE that changed rows', async () => {
    const before = committed();
    await sql`insert into ${sql.id(table)} (id) values ('r1') returning id`.execute(db);
    await sql`update ${sql.id(table)} set n = 2 where id = 'r1'`.execute(db);
    expect(committed()).toBe(before + 2);
  });
});
