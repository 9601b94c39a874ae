/**
 * Idempotency-Key through HTTP: replay of the first response without doing the work again, 422 for
 * another body or path, 409 while the first is running, per token, 24 hours, purge of expired keys,
 * and (on PostgreSQL) two app instances on one database.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h.close());

const keyed = (client: Client, url: string, body: unknown, key: string) =>
  client.request('POST', url, body, { 'idempotency-key': key });

async function spaceCount(organizationId: string) {
  const rows = await h.db.selectFrom('spaces').select('id').where('organization_id', '=', organizationId).execute();
  return rows.length;
}

async function tokenIdOf(userId: string) {
  return (await h.db.selectFrom('api_tokens').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
}

describe('Idempotency-Key', () => {
  it('purges expired keys', async () => {
    const u = await h.user();
    const tokenId = await tokenIdOf(u.user.id);
    const past = new Date(Date.now() - 1000).toISOString();
    await h.db
      .insertInto('idempotency_keys')
      .values({
        token_id: tokenId,
        key: 'old',
        fingerprint: 'x',
        state: 'done',
        status: 201,
        headers: '{}',
        body: '{}',
        created_at: past,
        expires_at: past,
      })
      .execute();
    const org = await h.org();
    expect((await keyed(org.admin.client, `/v1/orgs/${org.id}/spaces`, { title: 'A' }, 'purge-trigger')).status).toBe(
      201,
    );
    await expect
      .poll(
        async () =>
          (await h.db.selectFrom('idempotency_keys').select('key').where('token_id', '=', tokenId).execute()).length,
      )
      .toBe(0);
  });

  it('a retry with the same key and body replays status, body and Location without doing the work again', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    const first = await keyed(org.admin.client, url, { title: 'Handbook' }, 'create-handbook-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await keyed(org.admin.client, url, { title: 'Handbook' }, 'create-handbook-1');
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await spaceCount(org.id)).toBe(1);
    // Without a key, every POST does the work.
    expect((await org.admin.client.post(url, { title: 'Handbook' })).status).toBe(201);
    expect(await spaceCount(org.id)).toBe(2);
  });

  it("keeps the answer sealed: a webhook's secret is not in the database, yet the retry gets the same answer", async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/webhooks`;
    const body = { url: 'https://hooks.example.test/in', events: ['space.*'] };
    const first = await keyed(org.admin.client, url, body, 'webhook-1');
    expect(first.status).toBe(201);
    const secret = first.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const tokenId = await tokenIdOf(org.admin.user.id);
    const row = await h.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('token_id', '=', tokenId)
      .where('key', '=', 'webhook-1')
      .executeTakeFirstOrThrow();
    expect(row.body).not.toContain(secret);
    expect(row.body).not.toContain(secret.slice('whsec_'.length));
    expect(row.body).not.toContain(first.body.id);

    const retry = await keyed(org.admin.client, url, body, 'webhook-1');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    const hooks = await h.db.selectFrom('webhooks').select('id').where('organization_id', '=', org.id).execute();
    expect(hooks).toHaveLength(1);

    // The sealed answer is bound to its token and key: copied under another token, it reads as nothing.
    const other = await h.member(org.id, 'admin');
    await h.db
      .insertInto('idempotency_keys')
      .values({ ...row, token_id: await tokenIdOf(other.user.id) })
      .execute();
    const stolen = await keyed(other.client, url, body, 'webhook-1');
    expect(stolen.status).toBe(409);
    expect(JSON.stringify(stolen.body)).not.toContain(secret);
  });

  it('replays errors the handler answered too (but not 5xx), and 204s', async () => {
    const org = await h.org();
    const missing = await keyed(org.admin.client, '/v1/spaces/no-such-space/restore', {}, 'restore-missing');
    expect(missing.status).toBe(404);
    const again = await keyed(org.admin.client, '/v1/spaces/no-such-space/restore', {}, 'restore-missing');
    expect(again.status).toBe(404);
    expect(again.body).toEqual(missing.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('the same key with another body or another path is a 422 with the envelope', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    expect((await keyed(org.admin.client, url, { title: 'One' }, 'k-422')).status).toBe(201);
    const otherBody = await keyed(org.admin.client, url, { title: 'Two' }, 'k-422');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ error: { code: 422, message: expect.stringMatching(/Idempotency-Key/) } });
    const otherPath = await keyed(org.admin.client, `/v1/orgs/${org.id}/collections`, { title: 'One' }, 'k-422');
    expect(otherPath.status).toBe(422);
    expect(await spaceCount(org.id)).toBe(1);
  });

  it('keys belong to a token: another token may use the same key', async () => {
    const org = await h.org();
    const other = await h.member(org.id, 'admin');
    const url = `/v1/orgs/${org.id}/spaces`;
    expect((await keyed(org.admin.client, url, { title: 'Same' }, 'shared-key')).status).toBe(201);
    const res = await keyed(other.client, url, { title: 'Same' }, 'shared-key');
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await spaceCount(org.id)).toBe(2);
  });

  it('a retry while the first is still running is a 409; a claim abandoned by a dead process is taken over', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    expect((await keyed(org.admin.client, url, { title: 'Running' }, 'k-409')).status).toBe(201);
    const tokenId = await tokenIdOf(org.admin.user.id);
    // As if the first request were still being handled (its process writes the response at the end).
    const row = h.db.updateTable('idempotency_keys').where('token_id', '=', tokenId).where('key', '=', 'k-409');
    await row.set({ state: 'running', status: null, body: null }).execute();
    const busy = await keyed(org.admin.client, url, { title: 'Running' }, 'k-409');
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe(409);
    expect(await spaceCount(org.id)).toBe(1);
    // 16 minutes later it never finished: its process died, so the retry runs.
    await row.set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() }).execute();
    const retried = await keyed(org.admin.client, url, { title: 'Running' }, 'k-409');
    expect(retried.status).toBe(201);
    expect(await spaceCount(org.id)).toBe(2);
  });

  it('concurrent identical requests do the work once', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => keyed(org.admin.client, url, { title: 'Concurrent' }, 'k-concurrent')),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(await spaceCount(org.id)).toBe(1);
  });

  it('keys are kept 24 hours', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    const before = Date.now();
    expect((await keyed(org.admin.client, url, { title: 'Kept' }, 'k-24h')).status).toBe(201);
    const tokenId = await tokenIdOf(org.admin.user.id);
    const row = await h.db
      .selectFrom('idempotency_keys')
      .select(['expires_at', 'state'])
      .where('token_id', '=', tokenId)
      .where('key', '=', 'k-24h')
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('done');
    const kept = Date.parse(row.expires_at) - before;
    expect(kept).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(kept).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    // Once expired, the key is free again: the same request does the work again.
    await h.db
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('token_id', '=', tokenId)
      .where('key', '=', 'k-24h')
      .execute();
    const again = await keyed(org.admin.client, url, { title: 'Kept' }, 'k-24h');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await spaceCount(org.id)).toBe(2);
  });

  it('a malformed key is a 400, and the request is not run', async () => {
    const org = await h.org();
    const res = await keyed(org.admin.client, `/v1/orgs/${org.id}/spaces`, { title: 'X' }, 'a'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/Idempotency-Key/);
    expect(await spaceCount(org.id)).toBe(0);
  });
});

describe.runIf(inject('databaseUrl') !== null)('Idempotency-Key across processes (PostgreSQL)', () => {
  let second: App;
  beforeAll(async () => {
    second = await buildApp({ config: h.app.config, db: h.db, migrate: false, logger: false });
    await second.ready();
  }, 120_000);
  afterAll(async () => second?.close());

  it('a retry on another instance replays; concurrent requests on both do the work once', async () => {
    const org = await h.org();
    const url = `/v1/orgs/${org.id}/spaces`;
    const there = new Client(second, org.admin.token);
    const first = await keyed(org.admin.client, url, { title: 'Here' }, 'k-processes');
    const retry = await keyed(there, url, { title: 'Here' }, 'k-processes');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);

    const results = await Promise.all(
      [org.admin.client, there, org.admin.client, there].map((c) => keyed(c, url, { title: 'Both' }, 'k-both')),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(await spaceCount(org.id)).toBe(2);
  });
});
