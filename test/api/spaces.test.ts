import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('spaces', () => {
  it('creates a space (201, Location) with every field of the Space object', async () => {
    const org = await h.org();
    const res = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, {
      title: 'Guides',
      emoji: '📘',
      visibility: 'public',
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test/v1/spaces/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Guides',
      emoji: '📘',
      visibility: 'public',
      editMode: 'live',
      organization: org.id,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://bindery.test/v1/spaces/${res.body.id}`, app: `http://bindery.test/s/${res.body.id}` },
      permissions: { view: true, access: true, admin: true, edit: true, comment: true, merge: true, review: true },
    });
    expect(res.body.revision).toEqual(expect.any(String));
    expect(res.body.urls.public).toBeDefined();
    expect(res.body.deletedAt).toBeUndefined();
  });

  it.each([
    [{ title: 'a'.repeat(50) }, 201],
    [{ title: 'a'.repeat(51) }, 400],
    [{ emoji: 'x'.repeat(51) }, 400],
    [{ visibility: 'secret' }, 400],
    [{ visibility: 'in-collection' }, 400],
    [{ editMode: 'locked' }, 201],
    [{ unknown: 1 }, 400],
  ])('create body %j -> %i', async (body, status) => {
    const org = await h.org();
    expect((await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, body)).status).toBe(status);
  });

  it('needs the create role at the top level, or create on the parent collection', async () => {
    const org = await h.org();
    const editor = await h.member(org.id, 'edit');
    expect((await editor.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'x' })).status).toBe(403);
    const creator = await h.member(org.id, 'create');
    expect((await creator.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'x' })).status).toBe(201);
    const col = await org.admin.client.post(`/v1/orgs/${org.id}/collections`, { title: 'C' });
    await org.admin.client.post(`/v1/collections/${col.body.id}/permissions`, {
      role: 'create',
      users: [editor.user.id],
    });
    const inside = await editor.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'in', parent: col.body.id });
    expect(inside.status).toBe(201);
    expect(inside.body.parent).toBe(col.body.id);
    expect(inside.body.visibility).toBe('in-collection');
    const outsider = await h.user();
    expect((await outsider.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'x' })).status).toBe(404);
    const otherOrg = await h.org();
    const foreignCol = await otherOrg.admin.client.post(`/v1/orgs/${otherOrg.id}/collections`, { title: 'F' });
    expect((await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { parent: foreignCol.body.id })).status).toBe(404);
  });

  it('get, patch (admin only), 404 for outsiders, 403 for readers', async () => {
    const org = await h.org();
    const reader = await h.member(org.id, 'read');
    const space = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body;
    const asReader = await reader.client.get(`/v1/spaces/${space.id}`);
    expect(asReader.status).toBe(200);
    expect(asReader.body.permissions).toMatchObject({ view: true, admin: false, edit: false, comment: false });
    expect((await reader.client.patch(`/v1/spaces/${space.id}`, { title: 'No' })).status).toBe(403);
    expect((await (await h.user()).client.get(`/v1/spaces/${space.id}`)).status).toBe(404);
    const patched = await org.admin.client.patch(`/v1/spaces/${space.id}`, {
      title: 'Renamed',
      emoji: '🎉',
      editMode: 'locked',
      defaultLevel: 'comment',
      visibility: 'unlisted',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      emoji: '🎉',
      editMode: 'locked',
      defaultLevel: 'comment',
      visibility: 'unlisted',
    });
    expect((await reader.client.get(`/v1/spaces/${space.id}`)).body.permissions.comment).toBe(true);
    expect(
      (await org.admin.client.patch(`/v1/spaces/${space.id}`, { defaultLevel: null })).body.defaultLevel,
    ).toBeNull();
    expect((await reader.client.get(`/v1/spaces/${space.id}`)).status).toBe(404);
    expect((await org.admin.client.patch(`/v1/spaces/${space.id}`, { title: 'a'.repeat(51) })).status).toBe(400);
    expect((await org.admin.client.get('/v1/spaces/nope')).status).toBe(404);
  });

  it('delete is soft: hidden from lists, visible to admins with deletedAt, restorable', async () => {
    const org = await h.org();
    const reader = await h.member(org.id, 'read');
    const space = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body;
    expect((await reader.client.delete(`/v1/spaces/${space.id}`)).status).toBe(403);
    expect((await org.admin.client.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/spaces`)).body.count).toBe(0);
    const deleted = await org.admin.client.get(`/v1/spaces/${space.id}`);
    expect(deleted.body.deletedAt).toEqual(expect.any(String));
    expect((await reader.client.get(`/v1/spaces/${space.id}`)).status).toBe(404);
    expect((await org.admin.client.delete(`/v1/spaces/${space.id}`)).status).toBe(204);
    const restored = await org.admin.client.post(`/v1/spaces/${space.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/spaces`)).body.count).toBe(1);
  });

  it('moves between collections with positions among siblings', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const col = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'C' })).body;
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c'])
      ids.push((await c.post(`/v1/orgs/${org.id}/spaces`, { title, parent: col.id })).body.id);
    const order = async () =>
      (await c.get(`/v1/collections/${col.id}/spaces`)).body.items.map((s: { title: string }) => s.title);
    expect(await order()).toEqual(['a', 'b', 'c']);
    expect(
      (await c.post(`/v1/spaces/${ids[2]}/move`, { position: { before: { type: 'space', space: ids[0] } } })).status,
    ).toBe(200);
    expect(await order()).toEqual(['c', 'a', 'b']);
    await c.post(`/v1/spaces/${ids[2]}/move`, { position: { after: { type: 'space', space: ids[1] } } });
    expect(await order()).toEqual(['a', 'b', 'c']);
    const out = await c.post(`/v1/spaces/${ids[0]}/move`, { parent: null });
    expect(out.body.parent).toBeUndefined();
    expect(out.body.visibility).toBe('private');
    expect(await order()).toEqual(['b', 'c']);
    const bad = await c.post(`/v1/spaces/${ids[1]}/move`, { position: { before: { type: 'space', space: ids[0] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('position');
    expect((await c.post(`/v1/spaces/${ids[1]}/move`, {})).status).toBe(400);
  });

  it('lists 1,000 spaces: paging walks each readable one exactly once', async () => {
    const org = await h.org();
    const now = Date.now();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `${org.id}-s${String(i).padStart(4, '0')}`,
      organization_id: org.id,
      parent_id: null,
      title: `Space ${i}`,
      emoji: null,
      visibility: 'private',
      edit_mode: 'live',
      language: null,
      // Every tenth space is closed to everyone but explicit grants.
      default_level: i % 10 === 0 ? 'none' : 'inherit',
      position: i,
      revision_id: `r${i}`,
      created_at: new Date(now + i).toISOString(),
      updated_at: new Date(now + i).toISOString(),
      deleted_at: null,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await h.db
        .insertInto('spaces')
        .values(rows.slice(i, i + 100))
        .execute();
    const reader = await h.member(org.id, 'read');
    const walk = async (client: typeof reader.client) => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await client.get(`/v1/orgs/${org.id}/spaces?limit=150${page ? `&page=${page}` : ''}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((s: { id: string }) => s.id));
        page = res.body.next?.page;
      } while (page);
      return seen;
    };
    const all = await walk(org.admin.client);
    expect(all).toHaveLength(1000);
    expect(new Set(all).size).toBe(1000);
    expect(all).toEqual(rows.map((r) => r.id));
    const readable = await walk(reader.client);
    expect(readable).toHaveLength(900);
    expect((await reader.client.get(`/v1/orgs/${org.id}/spaces?limit=0`)).body.count).toBe(900);
  });
});
