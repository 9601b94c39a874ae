/**
 * Events recorded by the service layer, read back through the audit log and the webhook deliveries:
 * one per change, in the change's transaction (a change refused midway records nothing), with the
 * resource as the API presents it and the fields it changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

async function audit(admin: TestUser, org: string, query = '') {
  const res = await admin.client.get(`/v1/orgs/${org}/audit-events?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body.items as { id: string; action: string; target: { type: string; id: string } }[];
}

async function payload(admin: TestUser, org: string, id: string) {
  return (await admin.client.get(`/v1/orgs/${org}/audit-events/${id}`)).body.payload;
}

describe('space events', () => {
  it('records create, update, move, delete and restore with the space as presented', async () => {
    const { id: org, admin } = await h.org();
    const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' })).body;
    const collection = (await admin.client.post(`/v1/orgs/${org}/collections`, { title: 'Docs' })).body;
    expect((await admin.client.patch(`/v1/spaces/${space.id}`, { title: 'Handbook' })).status).toBe(200);
    expect((await admin.client.post(`/v1/spaces/${space.id}/move`, { parent: collection.id })).status).toBe(200);
    expect((await admin.client.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await admin.client.post(`/v1/spaces/${space.id}/restore`)).status).toBe(200);

    const events = await audit(admin, org, `&target=${space.id}`);
    expect(events.map((e) => e.action)).toEqual([
      'space.restored',
      'space.deleted',
      'space.moved',
      'space.updated',
      'space.created',
    ]);
    const [restored, deleted, moved, updated, created] = events as [any, any, any, any, any];
    expect(await payload(admin, org, created.id)).toEqual({ object: { ...space } });
    const update = await payload(admin, org, updated.id);
    expect(update.object).toMatchObject({ object: 'space', id: space.id, title: 'Handbook' });
    expect(update.previous).toEqual({ title: 'Guide' });
    const move = await payload(admin, org, moved.id);
    expect(move.object.parent).toBe(collection.id);
    expect(move.previous).toEqual({ parent: null });
    expect((await payload(admin, org, deleted.id)).object.deletedAt).toEqual(expect.any(String));
    expect((await payload(admin, org, restored.id)).object.deletedAt).toBeUndefined();
  });

  it('records nothing for a change that is refused', async () => {
    const { id: org, admin } = await h.org();
    const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' })).body;
    const before = await audit(admin, org);
    const refused = await admin.client.patch(`/v1/spaces/${space.id}`, { visibility: 'in-collection' });
    expect(refused.status).toBe(400);
    const editor = await h.member(org, 'edit');
    expect((await editor.client.delete(`/v1/spaces/${space.id}`)).status).toBe(403);
    expect(await audit(admin, org)).toEqual(before);
  });
});

describe('team events', () => {
  it('records create, rename, membership changes and delete', async () => {
    const { id: org, admin } = await h.org();
    const alice = await h.member(org, 'read');
    const team = (await admin.client.put(`/v1/orgs/${org}/teams`, { title: 'Writers' })).body;
    expect((await admin.client.patch(`/v1/orgs/${org}/teams/${team.id}`, { title: 'Editors' })).status).toBe(200);
    expect((await admin.client.put(`/v1/orgs/${org}/teams/${team.id}/members`, { add: [alice.user.id] })).status).toBe(
      204,
    );
    expect((await admin.client.delete(`/v1/orgs/${org}/teams/${team.id}/members/${alice.user.id}`)).status).toBe(204);
    expect((await admin.client.delete(`/v1/orgs/${org}/teams/${team.id}`)).status).toBe(204);

    const events = await audit(admin, org, `&target=${team.id}`);
    expect(events.map((e) => e.action)).toEqual([
      'team.deleted',
      'team.members.updated',
      'team.members.updated',
      'team.updated',
      'team.created',
    ]);
    const [, removed, added, renamed, created] = events as [any, any, any, any, any];
    expect((await payload(admin, org, created.id)).object).toMatchObject({
      object: 'team',
      id: team.id,
      title: 'Writers',
      members: 0,
    });
    expect((await payload(admin, org, renamed.id)).previous).toEqual({ title: 'Writers' });
    const add = await payload(admin, org, added.id);
    expect(add.object.members).toBe(1);
    expect(add.previous).toEqual({ members: 0 });
    expect((await payload(admin, org, removed.id)).object.members).toBe(0);
  });

  it('records nothing when a batch membership change fails midway (rolled back)', async () => {
    const { id: org, admin } = await h.org();
    const alice = await h.member(org, 'read');
    const team = (await admin.client.put(`/v1/orgs/${org}/teams`, { title: 'Writers' })).body;
    const before = await audit(admin, org);
    const res = await admin.client.put(`/v1/orgs/${org}/teams/${team.id}/members`, {
      add: [alice.user.id],
      remove: ['nobody@example.test'],
    });
    expect(res.status).toBe(400);
    expect(await audit(admin, org)).toEqual(before);
    expect((await admin.client.get(`/v1/orgs/${org}/teams/${team.id}`)).body.members).toBe(0);
  });

  it('schedules deliveries only to the webhooks that subscribe to the type', async () => {
    const { id: org, admin } = await h.org();
    const hook = (url: string, events: string[]) =>
      admin.client.post(`/v1/orgs/${org}/webhooks`, { url, events }).then((r) => r.body.id as string);
    const teams = await hook('https://a.example.test/', ['team.*']);
    const spaces = await hook('https://b.example.test/', ['space.created']);
    const inactive = (
      await admin.client.post(`/v1/orgs/${org}/webhooks`, {
        url: 'https://c.example.test/',
        events: ['*'],
        active: false,
      })
    ).body.id;
    await admin.client.put(`/v1/orgs/${org}/teams`, { title: 'Writers' });
    await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' });
    const types = async (id: string) =>
      (await admin.client.get(`/v1/orgs/${org}/webhooks/${id}/deliveries`)).body.items.map((d: any) => d.event.type);
    expect(await types(teams)).toEqual(['team.created']);
    expect(await types(spaces)).toEqual(['space.created']);
    expect(await types(inactive)).toEqual([]);
  });
});

describe('collection events', () => {
  it('records create, update, move, transfer (in both organizations) and delete', async () => {
    const { id: org, admin } = await h.org();
    const parent = (await admin.client.post(`/v1/orgs/${org}/collections`, { title: 'Parent' })).body;
    const col = (await admin.client.post(`/v1/orgs/${org}/collections`, { title: 'Docs' })).body;
    expect((await admin.client.patch(`/v1/collections/${col.id}`, { description: 'All docs' })).status).toBe(200);
    expect((await admin.client.post(`/v1/collections/${col.id}/move`, { parent: parent.id })).status).toBe(200);
    const events = await audit(admin, org, `&target=${col.id}`);
    expect(events.map((e) => e.action)).toEqual(['collection.moved', 'collection.updated', 'collection.created']);
    const [moved, updated, created] = events as [any, any, any];
    expect((await payload(admin, org, created.id)).object).toEqual(col);
    expect((await payload(admin, org, updated.id)).previous).toEqual({ description: null });
    expect((await payload(admin, org, moved.id)).previous).toEqual({ parent: null });

    const target = (await admin.client.post('/v1/orgs', { title: 'Other org' })).body.id;
    expect((await admin.client.post(`/v1/collections/${parent.id}/transfer`, { organization: target })).status).toBe(
      200,
    );
    const [left] = (await audit(admin, org, `&target=${parent.id}`)) as [any];
    const [joined] = (await audit(admin, target, `&target=${parent.id}`)) as [any];
    expect([left.action, joined.action]).toEqual(['collection.moved', 'collection.moved']);
    const transfer = await payload(admin, target, joined.id);
    expect(transfer.object.organization).toBe(target);
    expect(transfer.previous).toMatchObject({ organization: org });

    const other = (await admin.client.post(`/v1/orgs/${target}/collections`, { title: 'Gone' })).body;
    expect((await admin.client.delete(`/v1/collections/${other.id}`)).status).toBe(204);
    const [deleted] = (await audit(admin, target, `&target=${other.id}`)) as [any];
    expect(deleted.action).toBe('collection.deleted');
    expect((await payload(admin, target, deleted.id)).object).toMatchObject({ id: other.id, title: 'Gone' });
  });
});

describe('member events', () => {
  it('records invites, role and SSO changes and removal; a refused removal records nothing', async () => {
    const { id: org, admin } = await h.org();
    const invited = await admin.client.post(`/v1/orgs/${org}/invites`, {
      emails: ['new-one@example.test'],
      role: 'read',
    });
    expect(invited.status).toBe(200);
    const [userId] = invited.body.users as [string];
    expect((await admin.client.patch(`/v1/orgs/${org}/members/${userId}`, { role: 'edit' })).status).toBe(200);
    expect((await admin.client.post(`/v1/orgs/${org}/members/${userId}/sso`)).status).toBe(200);
    // The last admin cannot leave: refused with 409, nothing recorded.
    const before = await audit(admin, org);
    expect((await admin.client.delete(`/v1/orgs/${org}/members/${admin.user.id}`)).status).toBe(409);
    expect(await audit(admin, org)).toEqual(before);
    expect((await admin.client.delete(`/v1/orgs/${org}/members/${userId}`)).status).toBe(204);

    const events = await audit(admin, org, `&target=${userId}`);
    expect(events.map((e) => e.action)).toEqual(['member.removed', 'member.updated', 'member.updated', 'member.added']);
    const [removed, sso, role, added] = events as [any, any, any, any];
    const add = await payload(admin, org, added.id);
    expect(add.object).toMatchObject({ object: 'member', id: userId, role: 'read', user: { id: userId } });
    expect((await payload(admin, org, role.id)).previous).toEqual({ role: 'read' });
    expect((await payload(admin, org, sso.id)).previous).toEqual({ sso: false });
    expect((await payload(admin, org, removed.id)).object).toMatchObject({ id: userId, role: 'edit', sso: true });
  });
});

describe('organization and permission events', () => {
  it('records organization.updated with the changed fields', async () => {
    const { id: org, admin } = await h.org({ title: 'Before' });
    expect((await admin.client.patch(`/v1/orgs/${org}`, { title: 'After' })).status).toBe(200);
    const [event] = (await audit(admin, org, '&action=organization.updated')) as [any];
    const data = await payload(admin, org, event.id);
    expect(data.object).toMatchObject({ object: 'organization', id: org, title: 'After' });
    expect(data.previous).toEqual({ title: 'Before' });
  });

  it('records space.permissions.updated with the grants as they became', async () => {
    const { id: org, admin } = await h.org();
    const reader = await h.member(org, 'read');
    const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' })).body;
    const base = `/v1/spaces/${space.id}/permissions`;
    expect((await admin.client.post(base, { role: 'edit', users: [reader.user.id] })).status).toBe(204);
    expect((await admin.client.patch(`${base}/users/${reader.user.id}`, { role: 'comment' })).status).toBe(204);
    expect((await admin.client.delete(`${base}/users/${reader.user.id}`)).status).toBe(204);
    // Removing a grant that is not there changes nothing, and records nothing.
    expect((await admin.client.delete(`${base}/users/${reader.user.id}`)).status).toBe(204);
    const events = (await audit(admin, org, '&action=space.permissions.updated')) as any[];
    expect(events).toHaveLength(3);
    const roles = [];
    for (const e of events.reverse()) {
      expect(e.target).toEqual({ type: 'space', id: space.id });
      const data = await payload(admin, org, e.id);
      roles.push(data.object.grants);
    }
    expect(roles).toEqual([
      [{ user: reader.user.id, role: 'edit' }],
      [{ user: reader.user.id, role: 'comment' }],
      [{ user: reader.user.id, role: null }],
    ]);
  });
});

describe('site events', () => {
  it('records create, update, publish, unpublish and delete with the site as presented', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/sites`;
    const site = await admin.client.post(base, { title: 'Docs site' });
    expect(site.status).toBe(201);
    const id = site.body.id;
    expect((await admin.client.patch(`${base}/${id}`, { title: 'Help center' })).status).toBe(200);
    expect((await admin.client.post(`${base}/${id}/publish`)).status).toBe(200);
    expect((await admin.client.post(`${base}/${id}/unpublish`)).status).toBe(200);
    expect((await admin.client.delete(`${base}/${id}`)).status).toBe(204);

    const events = await audit(admin, org, `&target=${id}`);
    expect(events.map((e) => e.action)).toEqual([
      'site.deleted',
      'site.unpublished',
      'site.published',
      'site.updated',
      'site.created',
    ]);
    const [deleted, unpublished, published, updated, created] = events as [any, any, any, any, any];
    expect((await payload(admin, org, created.id)).object).toEqual(site.body);
    expect((await payload(admin, org, updated.id)).previous).toEqual({ title: 'Docs site' });
    const publish = await payload(admin, org, published.id);
    expect(publish.object.published).toBe(true);
    expect(publish.previous).toMatchObject({ published: false });
    expect((await payload(admin, org, unpublished.id)).object.published).toBe(false);
    expect((await payload(admin, org, deleted.id)).object).toMatchObject({ id, title: 'Help center' });
  });

  it('records share_link.created and share_link.deleted', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/sites`;
    const site = (await admin.client.post(base, { title: 'Docs site' })).body;
    const link = await admin.client.post(`${base}/${site.id}/share-links`, { name: 'Partners' });
    expect(link.status).toBe(201);
    expect((await admin.client.delete(`${base}/${site.id}/share-links/${link.body.id}`)).status).toBe(204);
    const events = await audit(admin, org, `&target=${link.body.id}`);
    expect(events.map((e) => e.action)).toEqual(['share_link.deleted', 'share_link.created']);
    const [deleted, created] = events as [any, any];
    expect((await payload(admin, org, created.id)).object).toEqual(link.body);
    expect((await payload(admin, org, deleted.id)).object).toMatchObject({ id: link.body.id, name: 'Partners' });
  });
});

describe('site structure events', () => {
  it('records site.structure.updated for site spaces, sections and groups, with the structure as presented', async () => {
    const { id: org, admin } = await h.org();
    const base = `/v1/orgs/${org}/sites`;
    const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' })).body;
    const other = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'API' })).body;
    const site = (await admin.client.post(base, { title: 'Docs site' })).body;
    const s = `${base}/${site.id}`;
    const structureEvents = () => audit(admin, org, `&target=${site.id}&action=site.structure.updated`);

    const siteSpace = await admin.client.post(`${s}/site-spaces`, { spaceId: space.id });
    expect(siteSpace.status).toBe(201);
    const [added] = (await structureEvents()) as [any];
    expect(added).toMatchObject({ target: { id: site.id } });
    const first = await payload(admin, org, added.id);
    expect(first).toEqual({
      object: { type: 'siteSpaces', structure: [expect.objectContaining({ id: siteSpace.body.id })] },
    });

    const section = await admin.client.post(`${s}/sections`, { spaceId: other.id, title: 'API' });
    expect(section.status).toBe(201);
    const sections = (await admin.client.get(`${s}/sections`)).body.items as { id: string }[];
    expect(
      (await admin.client.post(`${s}/section-groups`, { title: 'More', sections: [section.body.id] })).status,
    ).toBe(201);
    expect((await admin.client.patch(`${s}/sections/${sections[0]?.id}`, { title: 'Guide' })).status).toBe(200);
    const events = await structureEvents();
    expect(events).toHaveLength(4);
    // The newest event's object is what getSiteStructure answers now.
    const structure = await admin.client.get(`${s}/structure`);
    expect(structure.status).toBe(200);
    expect((await payload(admin, org, (events[0] as any).id)).object).toEqual(structure.body);
    expect(structure.body.type).toBe('sections');

    // A redirect is not structure (it records its own event); refused changes record nothing.
    const redirect = await admin.client.post(`${s}/redirects`, {
      source: '/blog',
      destination: { kind: 'external', url: 'https://blog.test/' },
    });
    expect(redirect.status).toBe(201);
    expect((await structureEvents()).length).toBe(4);
    const before = await audit(admin, org);
    expect(before[0]).toMatchObject({ action: 'site.redirect.created', target: { id: redirect.body.id } });
    expect((await admin.client.post(`${s}/sections`, { spaceId: null, siteSectionGroupId: 'missing' })).status).toBe(
      400,
    );
    expect((await admin.client.delete(`${s}/site-spaces/missing`)).status).toBe(404);
    const reader = await h.member(org, 'read');
    expect((await reader.client.post(`${s}/site-spaces`, { spaceId: space.id })).status).toBe(403);
    expect(await audit(admin, org)).toEqual(before);
  });
});

describe('integration events', () => {
  it('records integration.published for the first version and each republication, in the owner organization', async () => {
    const { id: org, admin } = await h.org();
    const name = `events-${org.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 40);
    const body = {
      title: 'Notifier',
      description: 'Says things',
      scopes: ['space:content:read'],
      script: 'export default {}',
      organization: org,
    };
    const first = await admin.client.post(`/v1/integrations/${name}`, body);
    expect(first.status).toBe(201);
    const second = await admin.client.post(`/v1/integrations/${name}`, { ...body, title: 'Notifier 2' });
    expect(second.status).toBe(200);
    const events = await audit(admin, org, `&target=${name}`);
    expect(events.map((e) => e.action)).toEqual(['integration.published', 'integration.published']);
    const [republished, published] = events as [any, any];
    expect(published.target).toMatchObject({ id: name });
    expect((await payload(admin, org, published.id)).object).toEqual(first.body);
    expect((await payload(admin, org, republished.id)).object).toEqual(second.body);

    // A refused publication (an admin of another organization) records nothing.
    const other = await h.org();
    const before = await audit(admin, org);
    expect(
      (await other.admin.client.post(`/v1/integrations/${name}`, { ...body, organization: other.id })).status,
    ).toBe(403);
    expect(await audit(admin, org)).toEqual(before);
  });
});

describe('translation events', () => {
  it('records created, updated (with the changed fields) and deleted', async () => {
    const { id: org, admin } = await h.org();
    const created = await admin.client.post(`/v1/orgs/${org}/translations`, { title: 'Docs', languages: ['fr'] });
    expect(created.status).toBe(201);
    const url = `/v1/orgs/${org}/translations/${created.body.id}`;
    expect((await admin.client.put(url, { title: 'Guides' })).status).toBe(200);
    expect((await admin.client.delete(url)).status).toBe(204);
    const events = await audit(admin, org, `&target=${created.body.id}`);
    expect(events.map((e) => e.action)).toEqual(['translation.deleted', 'translation.updated', 'translation.created']);
    const [, updated, made] = events as [any, any, any];
    expect((await payload(admin, org, made.id)).object).toEqual(created.body);
    expect((await payload(admin, org, updated.id)).previous).toMatchObject({ title: 'Docs' });
  });
});
