import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prepare } from '../../src/db/prepared.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('prepare (precompiled queries)', () => {
  it('compiles once and runs with each call’s arguments, keeping the query’s own constants', async () => {
    const { id: orgId, admin } = await h.org();
    const reader = await h.member(orgId, 'read');
    let builds = 0;
    const memberWithRole = prepare((db, p: { org: string; user: string }) => {
      builds++;
      return db
        .selectFrom('members')
        .select(['user_id', 'role'])
        .where('organization_id', '=', p.org)
        .where('user_id', '=', p.user)
        .where('role', 'in', ['admin', 'read']);
    });
    expect(await memberWithRole.first(h.db, { org: orgId, user: admin.user.id })).toEqual({
      user_id: admin.user.id,
      role: 'admin',
    });
    expect(await memberWithRole.first(h.db, { org: orgId, user: reader.user.id })).toEqual({
      user_id: reader.user.id,
      role: 'read',
    });
    expect(await memberWithRole.first(h.db, { org: orgId, user: 'nobody' })).toBeUndefined();
    expect(await memberWithRole.all(h.db, { org: 'nowhere', user: admin.user.id })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('puts an argument used twice in both places', async () => {
    const { id: orgId, admin } = await h.org();
    const selfJoin = prepare((db, p: { user: string }) =>
      db
        .selectFrom('members')
        .select('organization_id')
        .where('user_id', '=', p.user)
        .where((eb) => eb.exists(eb.selectFrom('users').select('users.id').where('users.id', '=', p.user))),
    );
    const rows = await selfJoin.all(h.db, { user: admin.user.id });
    expect(rows.map((r) => r.organization_id)).toContain(orgId);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    const byId = prepare((db, p: { id: string }) =>
      db.selectFrom('users').select(['id', 'email']).where('id', '=', p.id),
    );
    const id = newId();
    const email = `prepared-${id}@example.test`;
    await h.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id, email, display_name: 'P', photo_url: null, created_at: new Date().toISOString() })
          .execute();
        expect(await byId.first(trx, { id })).toEqual({ id, email });
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await byId.first(h.db, { id })).toBeUndefined();
  });

  it('runs a write (insert … returning): in a transaction that rolls back, and on its own', async () => {
    const insertUser = prepare((db, p: { id: string; email: string; photo: string | null }) =>
      db
        .insertInto('users')
        .values({
          id: p.id,
          email: p.email,
          display_name: 'P',
          photo_url: p.photo,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .returning(['id', 'photo_url']),
    );
    const rolledBack = newId();
    await h.db
      .transaction()
      .execute(async (trx) => {
        const row = await insertUser.first(trx, { id: rolledBack, email: `${rolledBack}@example.test`, photo: 'p' });
        expect(row).toEqual({ id: rolledBack, photo_url: 'p' });
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    const kept = newId();
    expect(await insertUser.all(h.db, { id: kept, email: `${kept}@example.test`, photo: null })).toEqual([
      { id: kept, photo_url: null },
    ]);
    const found = await h.db.selectFrom('users').select('id').where('id', 'in', [rolledBack, kept]).execute();
    expect(found.map((u) => u.id)).toEqual([kept]);
  });

  it('refuses an argument written into the SQL text or not used at all', async () => {
    const inText = prepare((db, p: { id: string }) =>
      db.selectFrom('users').select('id').where(sql`id`, '=', sql.lit(p.id)),
    );
    await expect(inText.first(h.db, { id: 'x' })).rejects.toThrow(/SQL text/);
    const mentioned = prepare((db, p: { id: string; other: string }) => {
      void p.other;
      return db.selectFrom('users').select('id').where('id', '=', p.id);
    });
    await expect(mentioned.first(h.db, { id: 'x', other: 'y' })).rejects.toThrow(/"other" is not a parameter/);
    const combined = prepare((db, p: { id: string }) =>
      db.selectFrom('users').select('id').where('email', 'like', `${p.id}%`),
    );
    await expect(combined.first(h.db, { id: 'x' })).rejects.toThrow(/combined/);
  });
});

describe('precompiled reads and transactions in flight', () => {
  const userById = prepare((db, p: { id: string }) =>
    db.selectFrom('users').select(['id', 'email']).where('id', '=', p.id),
  );

  it('never read what another caller’s open transaction has not committed (it rolls back here)', async () => {
    const id = newId();
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = h.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            id,
            email: `${id}@example.test`,
            display_name: 'Uncommitted',
            created_at: new Date().toISOString(),
          } as never)
          .execute();
        inserted();
        // Another request reads while this transaction holds the connection, then this one fails.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      })
      .catch(() => 'rolled back');
    await insertedSignal;
    const readDone = userById.first(h.db, { id });
    expect(await transaction).toBe('rolled back');
    expect(await readDone).toBeUndefined();
  });

  it('inside a transaction, read its own uncommitted rows', async () => {
    const id = newId();
    const seen = await h.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id, email: `${id}@example.test`, display_name: 'Own', created_at: new Date().toISOString() } as never)
        .execute();
      return userById.first(trx, { id });
    });
    expect(seen?.id).toBe(id);
  });
});

describe.runIf(inject('databaseUrl') !== null)('named statements on PostgreSQL', () => {
  it('prepares a query once per connection, answers its rows, and rejects with the database’s error', async () => {
    const { id: orgId, admin } = await h.org();
    const byId = prepare((db, p: { id: string }) =>
      db.selectFrom('users').select(['id', 'email']).where('id', '=', p.id),
    );
    await h.db.connection().execute(async (db) => {
      // Twice on one connection: parsed the first time, then bound and executed by name.
      for (let i = 0; i < 2; i++) expect((await byId.first(db, { id: admin.user.id }))?.id).toBe(admin.user.id);
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements
        where statement like ${'select "id", "email" from "users" where "id" = $1%'}`.execute(db);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toMatch(/^bindery_\d+$/);
      // A statement that fails reaches the caller with the database's code (a unique violation here).
      const again = db
        .insertInto('members')
        .values({ organization_id: orgId, user_id: admin.user.id, role: 'read', disabled: 0, sso: 0, joined_at: 'x' });
      await expect(again.execute()).rejects.toMatchObject({ code: '23505' });
    });
  });
});
