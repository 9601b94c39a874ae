/**
 * Changes that record an event since "every change records what happened": each is made through
 * the API, then read back from the audit log of the organization it belongs to, with its type, its
 * actor, its target and the object as presented. Site changes are in events-sites.test.ts, Git
 * Sync in git-events.test.ts, the CLI's tokens in cli-events.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents, recorded } from '../helpers/audit.js';
import { body, uniqueName, url } from '../helpers/integrations.js';
import { startReceiver } from '../helpers/receiver.js';

let h: Harness;
beforeAll(async () => {
  // Private addresses allowed: the webhook receiver is local (and no URL is looked up in DNS).
  h = await createHarness({ fetchAllowPrivate: true });
});
afterAll(async () => {
  await h?.close();
});

const SPEC = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} });

describe('organizations', () => {
  it('creating one records organization.created in it, by its creator', async () => {
    const me = await h.user();
    const res = await me.client.post('/v1/orgs', { title: 'Fresh' });
    expect(res.status).toBe(201);
    const event = await recorded(me.client, res.body.id, 'organization.created', {
      actor: me.user.id,
      target: { type: 'organization', id: res.body.id },
    });
    expect(event.payload.object).toEqual((await me.client.get(`/v1/orgs/${res.body.id}`)).body);
  });
});

describe('OpenAPI specifications', () => {
  it('create, put (create and update) and delete record openapi.spec.*', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/openapi`;
    const created = await admin.client.post(base, { slug: 'pets', source: { text: SPEC } });
    expect(created.status).toBe(201);
    const put = await admin.client.put(`${base}/stores`, { source: { text: SPEC } });
    expect(put.status).toBe(201);
    const updated = await admin.client.put(`${base}/pets`, { source: { url: 'https://specs.test/pets.json' } });
    expect(updated.status).toBe(200);
    expect((await admin.client.delete(`${base}/stores`)).status).toBe(204);

    const creations = await auditEvents(admin.client, org, 'openapi.spec.created');
    expect(creations.map((e) => e.target)).toEqual([
      { type: 'openapi-spec', id: put.body.id, label: 'stores' },
      { type: 'openapi-spec', id: created.body.id, label: 'pets' },
    ]);
    const update = await recorded(admin.client, org, 'openapi.spec.updated', {
      actor: admin.user.id,
      target: { type: 'openapi-spec', id: created.body.id },
    });
    expect(update.payload.object).toMatchObject({ object: 'openapi-spec', id: created.body.id, slug: 'pets' });
    expect(update.payload.previous).toBeDefined();
    await recorded(admin.client, org, 'openapi.spec.deleted', {
      actor: admin.user.id,
      target: { type: 'openapi-spec', id: put.body.id },
    });
  });
});

describe('integrations', () => {
  it('installing on an organization and on a space records the installation there', async () => {
    const owner = await h.org();
    const name = uniqueName();
    expect((await owner.admin.client.post(url(name), body(owner.id))).status).toBeLessThan(300);
    const { orgId, admin, spaceId } = await h.space();
    const installed = await admin.client.post(`${url(name)}/installations`, { organization: orgId });
    expect(installed.status).toBe(201);
    const event = await recorded(admin.client, orgId, 'integration.installation_setup', {
      actor: admin.user.id,
      target: { type: 'integration-installation', id: installed.body.id },
    });
    expect(event.payload.object).toEqual(installed.body);

    const onSpace = `${url(name)}/installations/${installed.body.id}/spaces`;
    const first = await admin.client.post(onSpace, { space: spaceId });
    expect(first.status).toBe(201);
    // Enabling it again is idempotent: nothing changes, nothing more is recorded.
    expect((await admin.client.post(onSpace, { space: spaceId })).status).toBe(201);
    const spaceEvent = await recorded(admin.client, orgId, 'integration.space_installation_setup', {
      actor: admin.user.id,
      target: { type: 'space', id: spaceId },
    });
    expect(spaceEvent.payload.object).toEqual(first.body);
    // Nothing of it in the publisher's organization.
    expect((await auditEvents(owner.admin.client, owner.id)).map((e) => e.action)).toEqual(['integration.published']);
  });
});

describe('requested reviewers', () => {
  it('requesting and withdrawing record change_request.reviewers_requested and reviewer_removed', async () => {
    const { orgId, admin, base } = await h.space();
    const reviewer = await h.member(orgId, 'read');
    const cr = await admin.client.post(`${base}/change-requests`, { subject: 'Edit' });
    expect(cr.status).toBe(201);
    const path = `${base}/change-requests/${cr.body.id}/requested-reviewers`;
    expect((await admin.client.post(path, { users: [reviewer.user.id] })).status).toBe(200);
    expect((await admin.client.delete(`${path}/${reviewer.user.id}`)).status).toBe(204);
    // Withdrawing one who is not requested is refused and records nothing.
    expect((await admin.client.delete(`${path}/${reviewer.user.id}`)).status).toBe(404);

    const target = { type: 'change-request', id: cr.body.id };
    const asked = await recorded(admin.client, orgId, 'change_request.reviewers_requested', {
      actor: admin.user.id,
      target,
    });
    expect(asked.payload.object).toMatchObject({
      object: 'change-request-reviewers',
      changeRequest: { id: cr.body.id },
      users: [{ user: { id: reviewer.user.id }, requestedBy: { id: admin.user.id } }],
    });
    const removed = await recorded(admin.client, orgId, 'change_request.reviewer_removed', {
      actor: admin.user.id,
      target,
    });
    expect(removed.payload.object.users).toMatchObject([{ user: { id: reviewer.user.id } }]);
  });
});

describe('webhooks', () => {
  it('redelivering records webhook.redelivered with the delivery', async () => {
    const receiver = await startReceiver();
    try {
      const { id: org, admin } = await h.org();
      const base = `/v1/orgs/${org}/webhooks`;
      const hook = await admin.client.post(base, { url: receiver.url, events: ['space.created'] });
      expect(hook.status).toBe(201);
      const ping = await admin.client.post(`${base}/${hook.body.id}/ping`);
      expect(ping.status).toBe(202);
      const again = await admin.client.post(`${base}/${hook.body.id}/deliveries/${ping.body.id}/redeliver`);
      expect(again.status).toBe(202);
      const event = await recorded(admin.client, org, 'webhook.redelivered', {
        actor: admin.user.id,
        target: { type: 'webhook-delivery', id: ping.body.id },
      });
      expect(event.payload.object).toMatchObject({ object: 'webhook-delivery', id: ping.body.id, status: 'pending' });
    } finally {
      await receiver.close();
    }
  });
});
