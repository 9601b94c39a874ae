/**
 * The guard of "every change records what happened" (src/core/event-guard.ts): a transaction opened by
 * `inTransaction` that changes data must record an event in that same transaction, or be opened by
 * a service function on the list of writes without events (src/core/unevented.ts); and that list
 * names functions that exist and use it. On this run's database (PostgreSQL when configured).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { UnrecordedChangeError } from '../../src/core/event-guard.js';
import { inTransaction, SYSTEM_ACTOR } from '../../src/core/service.js';
import { WRITES_WITHOUT_EVENT } from '../../src/core/unevented.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { recordEvent } from '../../src/events/record.js';
import { enqueue } from '../../src/jobs/index.js';
import { newId } from '../../src/lib/ids.js';

let db: Db;
let org: string;
beforeAll(async () => {
  const shared = inject('databaseUrl');
  db = createDb(shared ?? ':memory:', { poolSize: 2 });
  if (!shared) await migrateToLatest(db);
  const user = await findOrCreateUser(db, `guard-${newId(8).toLowerCase()}@example.test`, 'Guard');
  org = (await createOrganization(db, { title: 'Guarded' }, user.id)).id;
});
afterAll(async () => {
  await db?.destroy();
});

const ctx = { actor: SYSTEM_ACTOR };
const titleOf = async () =>
  (await db.selectFrom('organizations').select('title').where('id', '=', org).executeTakeFirstOrThrow()).title;
const rename = (trx: Db, title: string) =>
  trx.updateTable('organizations').set({ title }).where('id', '=', org).execute();
const event = (trx: Db) =>
  recordEvent(trx, ctx, {
    type: 'organization.updated',
    organizationId: org,
    target: { object: 'organization', id: org },
    data: { object: {} },
  });

describe('the event guard', () => {
  it('rolls back a change that records no event', async () => {
    const before = await titleOf();
    await expect(inTransaction(db, (trx) => rename(trx, 'Unrecorded'))).rejects.toThrow(UnrecordedChangeError);
    expect(await titleOf()).toBe(before);
  });

  it('commits a change with its event, also one recorded by a nested service call', async () => {
    await inTransaction(db, async (trx) => {
      await rename(trx, 'Recorded');
      await event(trx);
    });
    expect(await titleOf()).toBe('Recorded');
    await inTransaction(db, async (trx) => {
      await rename(trx, 'Nested');
      await inTransaction(trx, (inner) => event(inner));
    });
    expect(await titleOf()).toBe('Nested');
  });

  it('is not satisfied by an event recorded outside the transaction', async () => {
    await expect(
      inTransaction(db, async (trx) => {
        await rename(trx, 'Elsewhere');
        // On SQLite the one connection is the transaction's: the event would wait for it; on
        // PostgreSQL it commits on its own. Either way not this transaction's event.
        if (inject('databaseUrl')) await event(db);
      }),
    ).rejects.toThrow(UnrecordedChangeError);
    expect(await titleOf()).toBe('Nested');
  });

  it('lets through reads, statements that change no row, and job bookkeeping', async () => {
    await inTransaction(db, async (trx) => {
      await trx.selectFrom('organizations').select('id').where('id', '=', org).execute();
      await trx.updateTable('organizations').set({ title: 'x' }).where('id', '=', 'no-such-org').execute();
      const job = await enqueue(trx, 'guard.noop', {}, { runAt: new Date(Date.now() + 3_600_000) });
      await trx.deleteFrom('jobs').where('id', '=', job).execute(); // no job left for another test's worker
    });
  });

  it('lets a function on the list change data without an event', async () => {
    await inTransaction(db, (trx) => rename(trx, 'Listed'), { withoutEvent: 'pingOrganization' });
    expect(await titleOf()).toBe('Listed');
  });
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the list of writes without events', () => {
  it('names each function that uses it, where that function opens its transaction, with a reason', () => {
    const uses = new Map<string, string[]>();
    for (const file of sources('src')) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(/withoutEvent: '(\w+)'/g)) {
        const name = match[1] as string;
        // The use is inside the function it names: the nearest function declared before it.
        const declared = [...text.slice(0, match.index).matchAll(/function (\w+)/g)].at(-1)?.[1];
        expect(declared, `${file}: withoutEvent '${name}' is used in ${declared}`).toBe(name);
        uses.set(name, [...(uses.get(name) ?? []), file]);
      }
    }
    for (const [name, reason] of Object.entries(WRITES_WITHOUT_EVENT)) {
      expect(uses.get(name), `${name} is listed but never used`).toHaveLength(1);
      expect(reason.length).toBeGreaterThan(20);
    }
    expect([...uses.keys()].sort()).toEqual(Object.keys(WRITES_WITHOUT_EVENT).sort());
  });
});
