/**
 * GET answers kept in memory (http/response-cache.ts) are served again only while nothing has
 * committed since: a change through the API, a write behind it in this process (the harness's
 * direct inserts), and a change made by another connection to the database (another process) are
 * all seen by the next request — on PostgreSQL, once the change notification has arrived.
 * Authentication runs on every request, answers are kept per token, and only 200s of routes
 * declared `cacheable` are kept.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createToken, hashSecret, revokeToken } from '../../src/core/tokens.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: on PostgreSQL, other files' writes to the shared database would
// (rightly) empty this app's cache at any moment, and the hits these tests expect would come and go.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('response-cache');
  h = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});

function counts(harness: Harness) {
  const cache = harness.app.responseCache;
  if (!cache) throw new Error('the response cache is off');
  return { hits: cache.hits, misses: cache.misses };
}

/** GETs `url` and says whether the answer came from memory. */
async function get(harness: Harness, client: Client, url: string, headers: Record<string, string> = {}) {
  const before = counts(harness);
  const res = await client.request('GET', url, undefined, headers);
  const after = counts(harness);
  return { res, hit: after.hits === before.hits + 1, miss: after.misses === before.misses + 1 };
}

/** A new organization whose GET is answered from memory (read once, then a hit): it and its URL. */
async function keptOrganization(harness: Harness) {
  const org = await harness.org();
  const url = `/v1/orgs/${org.id}`;
  await get(harness, org.admin.client, url);
  expect((await get(harness, org.admin.client, url)).hit).toBe(true);
  return { org, url };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repeats `read` until `done` holds of its result (at most `ms`); the result and the time taken. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 3_000) {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > ms) return { value, took: Date.now() - started };
    await sleep(10);
  }
}

describe('response cache', () => {
  it('answers a repeated GET from memory with the same bytes and ETag, and If-None-Match with 304', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}`;
    const first = await get(h, org.admin.client, url);
    expect(first).toMatchObject({ hit: false, miss: true });
    expect(first.res.status).toBe(200);
    const second = await get(h, org.admin.client, url);
    expect(second.hit).toBe(true);
    expect(second.res.body).toEqual(first.res.body);
    expect(second.res.headers.etag).toBe(first.res.headers.etag);
    expect(second.res.headers['content-type']).toBe(first.res.headers['content-type']);
    expect(second.res.headers['x-request-id']).not.toBe(first.res.headers['x-request-id']);
    const conditional = await get(h, org.admin.client, url, { 'if-none-match': String(first.res.headers.etag) });
    expect(conditional.hit).toBe(true);
    expect(conditional.res.status).toBe(304);
    expect(conditional.res.body).toBe('');
  });

  it('keeps answers per URL, query string included', async () => {
    const org = await h.org();
    const c = org.admin.client;
    await c.post(`/v1/orgs/${org.id}/collections`, { title: 'One' });
    await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Two' });
    const all = await get(h, c, `/v1/orgs/${org.id}/collections`);
    const one = await get(h, c, `/v1/orgs/${org.id}/collections?limit=1`);
    expect(one.miss).toBe(true);
    expect(all.res.body.items).toHaveLength(2);
    expect(one.res.body.items).toHaveLength(1);
    expect((await get(h, c, `/v1/orgs/${org.id}/collections?limit=1`)).hit).toBe(true);
  });

  it('serves nothing stale after a change made through the API', async () => {
    const { org, url } = await keptOrganization(h);
    expect((await org.admin.client.patch(url, { title: 'Renamed' })).status).toBe(200);
    const after = await get(h, org.admin.client, url);
    expect(after.miss).toBe(true);
    expect(after.res.body.title).toBe('Renamed');
  });

  it('serves nothing stale after a write made behind the API in this process', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/members`;
    const before = await get(h, org.admin.client, url);
    expect((await get(h, org.admin.client, url)).hit).toBe(true);
    const member = await h.member(org.id, 'read'); // a direct insert through the harness's Kysely
    const after = await get(h, org.admin.client, url);
    expect(after.miss).toBe(true);
    expect(after.res.body.items).toHaveLength(before.res.body.items.length + 1);
    expect(after.res.body.items.map((m: { user: { id: string } }) => m.user.id)).toContain(member.user.id);
  });

  it('is not emptied by a rolled-back change or a change of nothing', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}`;
    await get(h, org.admin.client, url);
    await h.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('organizations').set({ title: 'Never' }).where('id', '=', org.id).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    await h.db.updateTable('organizations').set({ title: 'Nothing' }).where('id', '=', 'no-such-id').execute();
    const after = await get(h, org.admin.client, url);
    expect(after.hit).toBe(true);
    expect(after.res.body.title).not.toBe('Never');
  });

  it('keeps answers per token: callers with other roles get their own', async () => {
    const world = await h.space();
    const reader = await h.member(world.orgId, 'read');
    const asAdmin = await get(h, world.admin.client, world.base);
    const asReader = await get(h, reader.client, world.base);
    expect(asReader.miss).toBe(true);
    expect(asAdmin.res.body.permissions.admin).toBe(true);
    expect(asReader.res.body.permissions.admin).toBe(false);
    expect((await get(h, reader.client, world.base)).res.body.permissions.admin).toBe(false);
    expect((await get(h, world.admin.client, world.base)).res.body.permissions.admin).toBe(true);
  });

  it('authenticates every request: a revoked token is refused though its answer was kept', async () => {
    const org = await h.org();
    const { id, token } = await createToken(h.db, org.admin.user.id);
    const mine = new Client(h.app, token);
    const url = `/v1/orgs/${org.id}`;
    await get(h, mine, url);
    expect((await get(h, mine, url)).hit).toBe(true);
    await revokeToken(h.db, id);
    expect((await mine.get(url)).status).toBe(401);
  });

  it('keeps neither errors nor the answers of routes not declared cacheable', async () => {
    const org = await h.org();
    await get(h, org.admin.client, `/v1/collections/nope`);
    const again = await get(h, org.admin.client, `/v1/collections/nope`);
    expect(again.res.status).toBe(404);
    expect(again.miss).toBe(true);
    const audit = `/v1/orgs/${org.id}/audit-events`;
    expect((await org.admin.client.get(audit)).status).toBe(200);
    const before = counts(h);
    expect((await org.admin.client.get(audit)).status).toBe(200);
    expect(counts(h)).toEqual(before);
  });

  it('is off with RESPONSE_CACHE_MB=0', async () => {
    const off = await createHarness({ ownDatabase: database.url, responseCacheBytes: 0 });
    try {
      expect(off.app.responseCache).toBeNull();
      const org = await off.org();
      expect((await org.admin.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
      expect((await org.admin.client.patch(`/v1/orgs/${org.id}`, { title: 'New' })).status).toBe(200);
      expect((await org.admin.client.get(`/v1/orgs/${org.id}`)).body.title).toBe('New');
    } finally {
      await off.close();
    }
  });
});

describe('changes made by another process', () => {
  let own: Harness;
  /** Runs SQL (placeholders `$1`, `$2`…) on a connection of its own, as another process would. */
  let elsewhere: (text: string, values: unknown[]) => Promise<void>;
  let closeElsewhere: () => Promise<void>;

  beforeAll(async () => {
    own = h;
    if (database.postgres) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      elsewhere = async (text, values) => {
        await client.query(text, values);
      };
      closeElsewhere = () => client.end();
    } else {
      const connection = new SQLite(database.url);
      elsewhere = async (text, values) => {
        connection.prepare(text.replace(/\$\d+/g, '?')).run(...values);
      };
      closeElsewhere = async () => {
        connection.close();
      };
    }
  });
  afterAll(async () => {
    await closeElsewhere?.();
  });

  it('sees the change on the next request (PostgreSQL: once notified, within a second)', async () => {
    const { org, url } = await keptOrganization(own);
    await elsewhere('update organizations set title = $1 where id = $2', ['Changed elsewhere', org.id]);
    if (!database.postgres) {
      await sleep(2); // SQLite reads the data version at most once a millisecond
      expect((await get(own, org.admin.client, url)).res.body.title).toBe('Changed elsewhere');
      return;
    }
    const { value, took } = await eventually(
      () => org.admin.client.get(url),
      (res) => res.body.title === 'Changed elsewhere',
    );
    expect(value.body.title).toBe('Changed elsewhere');
    expect(took).toBeLessThan(1_000);
  });

  it('refuses a token revoked by another process as soon as it knows (not after the 10 s cache)', async () => {
    const org = await own.org();
    const url = `/v1/orgs/${org.id}`;
    expect((await org.admin.client.get(url)).status).toBe(200);
    const hash = hashSecret(org.admin.token);
    await elsewhere('update api_tokens set revoked_at = $1 where secret_hash = $2', [new Date().toISOString(), hash]);
    if (!database.postgres) await sleep(2);
    const { value, took } = await eventually(
      () => org.admin.client.get(url),
      (res) => res.status === 401,
    );
    expect(value.status).toBe(401);
    expect(took).toBeLessThan(1_000);
  });

  it.runIf(inject('databaseUrl') !== null)(
    'serves nothing from memory while notifications are lost, and again once back',
    async () => {
      const { org, url } = await keptOrganization(own);
      await elsewhere(
        `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query = 'listen bindery_changes' and pid <> pg_backend_pid()`,
        [],
      );
      // While the listening connection is gone, every read goes to the database.
      const lost = await eventually(
        () => get(own, org.admin.client, url),
        (read) => read.miss && !read.hit,
      );
      expect(lost.value.miss).toBe(true);
      await elsewhere('update organizations set title = $1 where id = $2', ['While deaf', org.id]);
      expect((await org.admin.client.get(url)).body.title).toBe('While deaf');
      // It reconnects (after ~1 s) and serves from memory again.
      const back = await eventually(
        () => get(own, org.admin.client, url),
        (read) => read.hit,
        5_000,
      );
      expect(back.value.hit).toBe(true);
      expect(back.value.res.body.title).toBe('While deaf');
    },
  );

  it.runIf(inject('databaseUrl') !== null)(
    "drops only what another Bindery process's change shows: its notification names the organization",
    async () => {
      const other = await createHarness({ ownDatabase: database.url });
      try {
        const a = await keptOrganization(own);
        const b = await keptOrganization(own);
        const renamed = await new Client(other.app, a.org.admin.token).patch(`/v1/orgs/${a.org.id}`, {
          title: 'Renamed by the other process',
        });
        expect(renamed.status).toBe(200);
        const { value, took } = await eventually(
          () =>
            own.app.inject({ method: 'GET', url: a.url, headers: { authorization: `Bearer ${a.org.admin.token}` } }),
          (res) => res.json().title === 'Renamed by the other process',
        );
        expect(value.json().title).toBe('Renamed by the other process');
        expect(took).toBeLessThan(1_000);
        // The notification named organization A: B's answer stays in memory.
        expect((await get(own, b.org.admin.client, b.url)).hit).toBe(true);
        // A change of unknown scope (a script's) still drops everything.
        await elsewhere('update organizations set title = $1 where id = $2', ['Changed by a script', b.org.id]);
        const script = await eventually(
          () => b.org.admin.client.get(b.url),
          (res) => res.body.title === 'Changed by a script',
        );
        expect(script.value.body.title).toBe('Changed by a script');
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(inject('databaseUrl') !== null)(
    "keeps its answers when another process checks its own notifications (a peer's probe is no change)",
    async () => {
      const { org, url } = await keptOrganization(own);
      // What a process starting on the same database sends to check its listening connection.
      await elsewhere('select pg_notify($1, $2)', ['bindery_changes', 'probe:another-process']);
      await sleep(200); // notifications arrive within milliseconds
      expect((await get(own, org.admin.client, url)).hit).toBe(true);
    },
  );

  it.runIf(inject('databaseUrl') !== null)(
    "tells no other process of a change when a read changed nothing (a site's visitor-auth settings, read again)",
    async () => {
      const org = await h.org();
      const site = await org.admin.client.post(`/v1/orgs/${org.id}/sites`, { title: 'Quiet reads' });
      expect(site.status).toBe(201);
      const auth = `/v1/orgs/${org.id}/sites/${site.body.id}/publishing/auth`;
      const first = await org.admin.client.get(auth); // makes the settings: a change
      expect(first.status).toBe(200);
      const listener = new pg.Client({ connectionString: database.url });
      await listener.connect();
      try {
        const heard: string[] = [];
        listener.on('notification', (message) => heard.push(message.payload ?? ''));
        await listener.query('listen bindery_changes');
        const again = await org.admin.client.get(auth);
        expect(again.body.privateKey).toBe(first.body.privateKey);
        // A change made now is heard, so the silence before it is not the listener's deafness.
        await org.admin.client.patch(`/v1/orgs/${org.id}`, { title: 'Heard' });
        await eventually(
          async () => heard.length,
          (n) => n > 0,
        );
        await sleep(200); // anything sent before the change arrives first: give it time to
        expect(heard).toHaveLength(1);
      } finally {
        await listener.end();
      }
    },
  );

  it.runIf(inject('databaseUrl') !== null)('puts the change trigger on every table but the job queue', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ table: string; has: boolean }>(
        `select c.relname as table,
                exists(select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'bindery_changes') as has
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r' and n.nspname = current_schema()`,
      );
      const without = rows.filter((r) => !r.has).map((r) => r.table);
      expect(without.sort()).toEqual(['jobs', 'kysely_migration', 'kysely_migration_lock']);
      expect(rows.length).toBeGreaterThan(30);
    } finally {
      await client.end();
    }
  });
});
