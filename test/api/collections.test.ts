import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('collections', () => {
  it('creates (201, Location), nested under a parent, and reads it back', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const top = await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Top', description: 'd' });
    expect(top.status).toBe(201);
    expect(top.headers.location).toBe(`http://bindery.test/v1/collections/${top.body.id}`);
    expect(top.body).toMatchObject({
      object: 'collection',
      title: 'Top',
      description: 'd',
      organization: org.id,
      defaultLevel: 'inherit',
      permissions: { view: true, admin: true, create: true },
    });
    const child = await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Child', parent: top.body.id });
    expect(child.body.parent).toBe(top.body.id);
    expect((await c.get(`/v1/collections/${child.body.id}`)).body.title).toBe('Child');
    expect((await c.post(`/v1/orgs/${org.id}/collections`, { parent: 'nope' })).status).toBe(404);
  });

  it.each([
    [{ title: 'a'.repeat(50) }, 200],
    [{ title: 'a'.repeat(51) }, 400],
    [{ description: '' }, 200],
    [{ description: 'a'.repeat(100) }, 200],
    [{ description: 'a'.repeat(101) }, 400],
    [{ defaultLevel: 'edit' }, 200],
    [{ defaultLevel: 'inherit' }, 200],
    [{ defaultLevel: null }, 200],
    [{ defaultLevel: 'owner' }, 400],
  ])('patch %j -> %i', async (body, status) => {
    const org = await h.org();
    const col = (await org.admin.client.post(`/v1/orgs/${org.id}/collections`, { title: 'x' })).body;
    const res = await org.admin.client.patch(`/v1/collections/${col.id}`, body);
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body).toMatchObject(body);
  });

  it('lists nested (default) in tree order, or only the top level', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const a = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'A' })).body;
    await c.post(`/v1/orgs/${org.id}/collections`, { title: 'B' });
    await c.post(`/v1/orgs/${org.id}/collections`, { title: 'A1', parent: a.id });
    const nested = await c.get(`/v1/orgs/${org.id}/collections`);
    expect(nested.body.items.map((x: { title: string }) => x.title)).toEqual(['A', 'A1', 'B']);
    const top = await c.get(`/v1/orgs/${org.id}/collections?nested=false`);
    expect(top.body.items.map((x: { title: string }) => x.title)).toEqual(['A', 'B']);
    const paged = await c.get(`/v1/orgs/${org.id}/collections?limit=2`);
    const rest = await c.get(`/v1/orgs/${org.id}/collections?limit=2&page=${paged.body.next.page}`);
    expect(rest.body.items.map((x: { title: string }) => x.title)).toEqual(['B']);
    expect(rest.body.next).toBeUndefined();
  });

  it('moves under a new parent, before/after siblings, to the end, never under itself', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const mk = async (title: string, parent?: string) =>
      (await c.post(`/v1/orgs/${org.id}/collections`, { title, parent })).body.id as string;
    const a = await mk('A');
    const b = await mk('B');
    const s = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body.id as string;
    const a1 = await mk('A1', a);
    const topOrder = async () =>
      (await c.get(`/v1/orgs/${org.id}/collections?nested=false`)).body.items.map((x: { title: string }) => x.title);
    expect(await topOrder()).toEqual(['A', 'B']);
    expect(
      (await c.post(`/v1/collections/${b}/move`, { position: { before: { type: 'collection', collection: a } } }))
        .status,
    ).toBe(200);
    expect(await topOrder()).toEqual(['B', 'A']);
    // Spaces are siblings too: position relative to a space.
    expect(
      (await c.post(`/v1/collections/${b}/move`, { position: { after: { type: 'space', space: s } } })).status,
    ).toBe(200);
    expect(await topOrder()).toEqual(['A', 'B']);
    const under = await c.post(`/v1/collections/${b}/move`, { parent: a });
    expect(under.body.parent).toBe(a);
    const nested = (await c.get(`/v1/orgs/${org.id}/collections`)).body.items.map((x: { title: string }) => x.title);
    expect(nested).toEqual(['A', 'A1', 'B']);
    const cycle = await c.post(`/v1/collections/${a}/move`, { parent: a1 });
    expect(cycle.status).toBe(400);
    expect((await c.post(`/v1/collections/${a}/move`, { parent: a })).status).toBe(400);
    expect((await c.post(`/v1/collections/${b}/move`, { parent: null })).body.parent).toBeUndefined();
  });

  it('lists its spaces in order; deleting removes sub-collections and soft-deletes spaces', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const col = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'C' })).body.id;
    const sub = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Sub', parent: col })).body.id;
    const s1 = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'one', parent: col })).body.id;
    const s2 = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'two', parent: sub })).body.id;
    const spaces = await c.get(`/v1/collections/${col}/spaces`);
    expect(spaces.body.items.map((s: { id: string }) => s.id)).toEqual([s1]);
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.delete(`/v1/collections/${col}`)).status).toBe(403);
    expect((await c.delete(`/v1/collections/${col}`)).status).toBe(204);
    expect((await c.get(`/v1/collections/${col}`)).status).toBe(404);
    expect((await c.get(`/v1/collections/${sub}`)).status).toBe(404);
    expect((await c.get(`/v1/spaces/${s2}`)).body.deletedAt).toEqual(expect.any(String));
    const restored = await c.post(`/v1/spaces/${s2}/restore`);
    expect(restored.body.parent).toBeUndefined();
  });

  it('transfers with its content to another organization where the caller is admin', async () => {
    const source = await h.org();
    const c = source.admin.client;
    const target = (await c.post('/v1/orgs', { title: 'Target' })).body.id;
    const col = (await c.post(`/v1/orgs/${source.id}/collections`, { title: 'C' })).body.id;
    const sub = (await c.post(`/v1/orgs/${source.id}/collections`, { title: 'Sub', parent: col })).body.id;
    const space = (await c.post(`/v1/orgs/${source.id}/spaces`, { title: 'S', parent: sub })).body.id;
    const reader = await h.member(source.id, 'read');
    await c.post(`/v1/collections/${col}/permissions`, { role: 'edit', users: [reader.user.id] });
    const moved = await c.post(`/v1/collections/${col}/transfer`, { organization: target });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ organization: target });
    expect((await c.get(`/v1/collections/${sub}`)).body.organization).toBe(target);
    expect((await c.get(`/v1/spaces/${space}`)).body.organization).toBe(target);
    expect((await c.get(`/v1/orgs/${target}/collections`)).body.count).toBe(2);
    expect((await c.get(`/v1/orgs/${source.id}/collections`)).body.count).toBe(0);
    // The reader is not a member of the target: their grant went away and the content is invisible to them.
    expect((await reader.client.get(`/v1/collections/${col}`)).status).toBe(404);

    const other = await h.org();
    const otherCol = (await other.admin.client.post(`/v1/orgs/${other.id}/collections`, { title: 'X' })).body.id;
    expect(
      (await other.admin.client.post(`/v1/collections/${otherCol}/transfer`, { organization: target })).status,
    ).toBe(404);
    const editorElsewhere = await h.member(target, 'edit');
    await h.db
      .insertInto('members')
      .values({
        organization_id: other.id,
        user_id: editorElsewhere.user.id,
        role: 'admin',
        disabled: 0,
        sso: 0,
        joined_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    expect(
      (await editorElsewhere.client.post(`/v1/collections/${otherCol}/transfer`, { organization: target })).status,
    ).toBe(403);
    expect((await c.post(`/v1/collections/${col}/transfer`, {})).status).toBe(400);
  });

  it('outsiders get 404 everywhere; readers 403 on changes', async () => {
    const org = await h.org();
    const col = (await org.admin.client.post(`/v1/orgs/${org.id}/collections`, { title: 'C' })).body.id;
    const outsider = await h.user();
    for (const res of [
      await outsider.client.get(`/v1/collections/${col}`),
      await outsider.client.patch(`/v1/collections/${col}`, { title: 'x' }),
      await outsider.client.get(`/v1/collections/${col}/spaces`),
      await outsider.client.get(`/v1/orgs/${org.id}/collections`),
      await outsider.client.post(`/v1/orgs/${org.id}/collections`, { title: 'x' }),
    ]) {
      expect(res.status).toBe(404);
    }
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.patch(`/v1/collections/${col}`, { title: 'x' })).status).toBe(403);
    expect((await reader.client.post(`/v1/collections/${col}/move`, { parent: null })).status).toBe(403);
    expect((await reader.client.post(`/v1/orgs/${org.id}/collections`, { title: 'x' })).status).toBe(403);
  });
});
