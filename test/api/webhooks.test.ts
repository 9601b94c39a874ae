/** Webhook management through HTTP: create, list, get, update, delete, rotate, ping, deliveries; 404/403/400. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
let guarded: Harness;
beforeAll(async () => {
  h = await createHarness({ fetchAllowPrivate: true });
  guarded = await createHarness();
});
afterAll(async () => {
  await h?.close();
  await guarded?.close();
});

const body = (extra: object = {}) => ({ url: 'https://hooks.example.test/in', events: ['space.*'], ...extra });

describe('webhooks', () => {
  it('creates a webhook and shows its secret only in that response', async () => {
    const { id: org, admin } = await h.org();
    const res = await admin.client.post(`/v1/orgs/${org}/webhooks`, body({ description: 'CI' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'webhook',
      url: 'https://hooks.example.test/in',
      events: ['space.*'],
      description: 'CI',
      active: true,
      deactivatedReason: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(res.headers.location).toBe(`http://bindery.test/v1/orgs/${org}/webhooks/${res.body.id}`);

    const one = await admin.client.get(`/v1/orgs/${org}/webhooks/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    expect(one.body.createdAt).toBe(res.body.createdAt);
    // Sealed at rest: the stored value is not the secret.
    const stored = await h.db
      .selectFrom('webhooks')
      .select('sealed_secret')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.sealed_secret).not.toContain(res.body.secret.slice(6));
    expect(stored.sealed_secret.startsWith('v1.')).toBe(true);
  });

  it('lists webhooks in pages, oldest first', async () => {
    const { id: org, admin } = await h.org();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await admin.client.post(`/v1/orgs/${org}/webhooks`, body())).body.id);
    const first = await admin.client.get(`/v1/orgs/${org}/webhooks?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((w: { id: string }) => w.id)).toEqual(ids.slice(0, 2));
    expect(first.body.items[0].secret).toBeUndefined();
    const second = await admin.client.get(`/v1/orgs/${org}/webhooks?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((w: { id: string }) => w.id)).toEqual(ids.slice(2));
    expect(second.body.next).toBeUndefined();
  });

  it('updates, rotates the secret, and deletes', async () => {
    const { id: org, admin } = await h.org();
    const created = (await admin.client.post(`/v1/orgs/${org}/webhooks`, body())).body;
    const patched = await admin.client.patch(`/v1/orgs/${org}/webhooks/${created.id}`, {
      events: ['*'],
      description: null,
      active: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['*'], description: null, active: false });
    expect(patched.body.secret).toBeUndefined();

    const rotated = await admin.client.post(`/v1/orgs/${org}/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    expect((await admin.client.delete(`/v1/orgs/${org}/webhooks/${created.id}`)).status).toBe(204);
    expect((await admin.client.get(`/v1/orgs/${org}/webhooks/${created.id}`)).status).toBe(404);
    expect((await admin.client.delete(`/v1/orgs/${org}/webhooks/${created.id}`)).status).toBe(404);
  });

  it('pings: a webhook.ping delivery to that webhook only, listed with its deliveries', async () => {
    const { id: org, admin } = await h.org();
    const a = (await admin.client.post(`/v1/orgs/${org}/webhooks`, body({ events: ['*'] }))).body;
    const b = (await admin.client.post(`/v1/orgs/${org}/webhooks`, body({ events: ['*'] }))).body;
    const ping = await admin.client.post(`/v1/orgs/${org}/webhooks/${a.id}/ping`);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({
      object: 'webhook-delivery',
      event: { type: 'webhook.ping' },
      status: 'pending',
      attempts: [],
    });
    expect(ping.body.nextAttemptAt).toEqual(expect.any(String));

    const ofA = await admin.client.get(`/v1/orgs/${org}/webhooks/${a.id}/deliveries`);
    expect(ofA.status).toBe(200);
    // Newest first: the ping, then b's creation (a subscribes to everything), then a's own.
    expect(ofA.body.items.map((d: { event: { type: string } }) => d.event.type)).toEqual([
      'webhook.ping',
      'webhook.created',
      'webhook.created',
    ]);
    const ofB = await admin.client.get(`/v1/orgs/${org}/webhooks/${b.id}/deliveries`);
    expect(ofB.body.items.map((d: { event: { type: string } }) => d.event.type)).toEqual(['webhook.created']);

    const pending = await admin.client.get(`/v1/orgs/${org}/webhooks/${a.id}/deliveries?status=pending&limit=1`);
    expect(pending.body.count).toBe(3);
    expect(pending.body.items).toHaveLength(1);
    expect(pending.body.next).toBeDefined();
    const none = await admin.client.get(`/v1/orgs/${org}/webhooks/${a.id}/deliveries?status=failed`);
    expect(none.body).toEqual({ items: [], count: 0 });
    const one = await admin.client.get(`/v1/orgs/${org}/webhooks/${a.id}/deliveries/${ping.body.id}`);
    expect(one.body.id).toBe(ping.body.id);
    expect((await admin.client.get(`/v1/orgs/${org}/webhooks/${b.id}/deliveries/${ping.body.id}`)).status).toBe(404);
    const again = await admin.client.post(`/v1/orgs/${org}/webhooks/${a.id}/deliveries/${ping.body.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('pending');
    expect((await admin.client.post(`/v1/orgs/${org}/webhooks/${a.id}/deliveries/nope/redeliver`)).status).toBe(404);
  });

  it('is for org admins: 404 to outsiders, 403 to other members, scopes enforced', async () => {
    const { id: org, admin } = await h.org();
    const created = (await admin.client.post(`/v1/orgs/${org}/webhooks`, body())).body;
    const outsider = await h.user();
    const editor = await h.member(org, 'edit');
    const base = `/v1/orgs/${org}/webhooks`;
    const calls = (c: typeof admin.client) => [
      c.get(base),
      c.post(base, body()),
      c.get(`${base}/${created.id}`),
      c.patch(`${base}/${created.id}`, { description: 'x' }),
      c.delete(`${base}/${created.id}`),
      c.post(`${base}/${created.id}/rotate-secret`),
      c.post(`${base}/${created.id}/ping`),
      c.get(`${base}/${created.id}/deliveries`),
    ];
    for (const res of await Promise.all(calls(outsider.client))) expect(res.status).toBe(404);
    for (const res of await Promise.all(calls(editor.client))) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/admin role/);
    }
    const reader = await h.member(org, 'admin', { scopes: ['organization:webhooks:read'] });
    expect((await reader.client.get(base)).status).toBe(200);
    const refused = await reader.client.post(base, body());
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('organization:webhooks:write');
    const writer = await h.member(org, 'admin', { scopes: ['organization:webhooks:write'] });
    expect((await writer.client.post(base, body())).status).toBe(201);
    expect((await writer.client.get(base)).status).toBe(200);
    expect((await admin.client.get(`${base}/unknown`)).status).toBe(404);
    expect((await admin.client.get(`/v1/orgs/nope/webhooks`)).status).toBe(404);
  });

  it('refuses bad input', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/webhooks`;
    const bad = async (payload: unknown, message: RegExp) => {
      const res = await admin.client.post(base, payload);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
    };
    await bad({ events: ['*'] }, /body\/url is required/);
    await bad(body({ url: 'not a url' }), /body\/url/);
    await bad(body({ events: [] }), /body\/events/);
    await bad(body({ events: ['space.exploded'] }), /"space.exploded" is not an event type/);
    await bad(body({ events: ['nothing.*'] }), /"nothing.\*" is not an event type/);
    await bad(body({ url: 'ftp://example.test/x' }), /body\/url: only http and https/);
    await bad(body({ secret: 'mine' }), /body\/secret is not a known field/);
    await bad(body({ description: 'x'.repeat(1001) }), /body\/description/);
    const created = (await admin.client.post(base, body())).body;
    const patch = await admin.client.patch(`${base}/${created.id}`, { events: ['nope'] });
    expect(patch.status).toBe(400);
    expect((await admin.client.get(`${base}/${created.id}`)).body.events).toEqual(['space.*']);
    expect((await admin.client.get(`${base}/${created.id}/deliveries?status=lost`)).status).toBe(400);
  });

  it('refuses a URL with user information or another scheme, on create and on update', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/webhooks`;
    const created = (await admin.client.post(base, body())).body;
    for (const url of [
      'http://user:s3cret@hooks.example.test/in',
      'https://token@hooks.example.test/in',
      'https://:s3cret@hooks.example.test/in',
      'ftp://hooks.example.test/in',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ]) {
      for (const res of [
        await admin.client.post(base, body({ url })),
        await admin.client.patch(`${base}/${created.id}`, { url }),
      ]) {
        expect(res.status, url).toBe(400);
        expect(res.body.error.message, url).toMatch(/body\/url/);
        expect(JSON.stringify(res.body), url).not.toContain('s3cret');
      }
    }
    const list = await admin.client.get(base);
    expect(list.body.items.map((w: { url: string }) => w.url)).toEqual(['https://hooks.example.test/in']);
  });

  it('refuses private and loopback receivers unless FETCH_ALLOW_PRIVATE', async () => {
    const { id: org, admin } = await guarded.org();
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://10.1.2.3/',
    ]) {
      const res = await admin.client.post(`/v1/orgs/${org}/webhooks`, body({ url }));
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(/private or reserved address/);
    }
    const open = await h.org();
    expect(
      (await open.admin.client.post(`/v1/orgs/${open.id}/webhooks`, body({ url: 'http://127.0.0.1:9/hook' }))).status,
    ).toBe(201);
  });

  it('is documented in the served OpenAPI document', async () => {
    const doc = (await h.anonymous.get('/v1/openapi.json')).body;
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) =>
      Object.values(p).map((op) => op.operationId),
    );
    for (const id of [
      'createOrganizationWebhook',
      'listOrganizationWebhooks',
      'getOrganizationWebhook',
      'updateOrganizationWebhook',
      'deleteOrganizationWebhook',
      'rotateOrganizationWebhookSecret',
      'pingOrganizationWebhook',
      'listOrganizationWebhookDeliveries',
      'getOrganizationWebhookDelivery',
      'redeliverOrganizationWebhookDelivery',
      'listOrganizationAuditEvents',
      'getOrganizationAuditEvent',
      'listOrganizationAuditEventActions',
    ]) {
      expect(ops, id).toContain(id);
    }
    const create = doc.paths['/v1/orgs/{organizationId}/webhooks'].post;
    expect(create.tags).toEqual(['webhooks']);
    expect(JSON.stringify(create.requestBody)).toContain('"events"');
    expect(JSON.stringify(create.responses['201'])).toContain('secret');
    expect(doc.components.securitySchemes.oauth.flows.clientCredentials.scopes).toHaveProperty(
      'organization:webhooks:write',
    );
  });
});
