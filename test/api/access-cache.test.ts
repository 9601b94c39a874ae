/**
 * The resolver's caches (permissions/access-cache.ts: the grants reaching a member, the collection
 * tree) never outlive a change made in this process: each test reads first (so the facts are
 * cached), changes one thing through the API, and the very next read shows the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setInvalidationQuarantine } from '../../src/core/cache.js';
import { type Client, createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  // Without the quarantine a read right after the setup's own writes is cached: a change that
  // forgot to invalidate then shows here (with it, these reads would go to the database anyway).
  setInvalidationQuarantine(0);
  h = await createHarness();
});
afterAll(async () => {
  setInvalidationQuarantine(2_000);
  await h?.close();
});

/** An organization with a collection `top` holding the space `space`, whose default level is none. */
async function world() {
  const org = await h.org();
  const c = org.admin.client;
  const top = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Top' })).body.id as string;
  const other = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Other' })).body.id as string;
  const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S', parent: top })).body.id as string;
  return { org, c, top, other, space };
}

/** The caller's role on the space as its `permissions` flags show it (null: 404). */
async function roleOn(client: Client, space: string): Promise<string | null> {
  const res = await client.get(`/v1/spaces/${space}`);
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  const p = res.body.permissions;
  return p.admin ? 'admin' : p.review ? 'review' : p.edit ? 'edit' : p.comment ? 'comment' : 'read';
}

/** Reads twice, so the second read is served from the caches. */
async function cachedRoleOn(user: TestUser, space: string) {
  await roleOn(user.client, space);
  return roleOn(user.client, space);
}

describe('grants', () => {
  it('a grant given and removed is seen by the next read', async () => {
    const { org, c, space } = await world();
    const guest = await h.member(org.id, null);
    expect(await cachedRoleOn(guest, space)).toBeNull();
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [guest.user.id] })).status).toBe(
      204,
    );
    expect(await roleOn(guest.client, space)).toBe('edit');
    expect(await roleOn(guest.client, space)).toBe('edit');
    expect((await c.delete(`/v1/spaces/${space}/permissions/users/${guest.user.id}`)).status).toBe(204);
    expect(await roleOn(guest.client, space)).toBeNull();
    expect((await guest.client.get(`/v1/spaces/${space}/content/pages`)).status).toBe(404);
  });

  it('a grant changed on a collection reaches the spaces below it at once', async () => {
    const { org, c, top, space } = await world();
    const reader = await h.member(org.id, 'read');
    expect(await cachedRoleOn(reader, space)).toBe('read');
    await c.post(`/v1/collections/${top}/permissions`, { role: 'review', users: [reader.user.id] });
    expect(await roleOn(reader.client, space)).toBe('review');
    await c.patch(`/v1/collections/${top}/permissions/users/${reader.user.id}`, { role: 'comment' });
    expect(await roleOn(reader.client, space)).toBe('comment');
  });
});

describe('teams', () => {
  it('a member removed from a team loses the team grant on the next read; added back, has it again', async () => {
    const { org, c, space } = await world();
    const member = await h.member(org.id, null);
    const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [member.user.id] })).body.id;
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'comment', teams: [team] });
    expect(await cachedRoleOn(member, space)).toBe('comment');
    expect((await c.delete(`/v1/orgs/${org.id}/teams/${team}/members/${member.user.id}`)).status).toBe(204);
    expect(await roleOn(member.client, space)).toBeNull();
    expect((await c.put(`/v1/orgs/${org.id}/teams/${team}/members/${member.user.id}`, {})).status).toBe(204);
    expect(await roleOn(member.client, space)).toBe('comment');
    expect((await c.put(`/v1/orgs/${org.id}/teams/${team}/members`, { remove: [member.user.id] })).status).toBe(204);
    expect(await roleOn(member.client, space)).toBeNull();
  });

  it('a deleted team takes its grants with it at once', async () => {
    const { org, c, space } = await world();
    const member = await h.member(org.id, null);
    const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [member.user.id] })).body.id;
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', teams: [team] });
    expect(await cachedRoleOn(member, space)).toBe('edit');
    expect((await c.delete(`/v1/orgs/${org.id}/teams/${team}`)).status).toBe(204);
    expect(await roleOn(member.client, space)).toBeNull();
  });

  it('a member removed from the organization loses their grants with their membership', async () => {
    const { org, c, space } = await world();
    const member = await h.member(org.id, null);
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [member.user.id] });
    expect(await cachedRoleOn(member, space)).toBe('edit');
    expect((await c.delete(`/v1/orgs/${org.id}/members/${member.user.id}`)).status).toBe(204);
    expect(await roleOn(member.client, space)).toBeNull();
  });
});

describe('the collection tree', () => {
  it('a space moved to another collection takes that collection’s grants on the next read', async () => {
    const { org, c, other, space } = await world();
    const reader = await h.member(org.id, 'read');
    await c.post(`/v1/collections/${other}/permissions`, { role: 'admin', users: [reader.user.id] });
    expect(await cachedRoleOn(reader, space)).toBe('read');
    expect((await c.post(`/v1/spaces/${space}/move`, { parent: other })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBe('admin');
    expect((await c.post(`/v1/spaces/${space}/move`, { parent: null })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBe('read');
  });

  it('a collection moved under another one inherits from it at once', async () => {
    const { org, c, top, other, space } = await world();
    const reader = await h.member(org.id, 'read');
    await c.post(`/v1/collections/${other}/permissions`, { role: 'edit', users: [reader.user.id] });
    expect(await cachedRoleOn(reader, space)).toBe('read');
    expect((await c.post(`/v1/collections/${top}/move`, { parent: other })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBe('edit');
  });

  it('a collection’s default level changed applies to the next read below it', async () => {
    const { org, c, top, space } = await world();
    const reader = await h.member(org.id, 'read');
    expect(await cachedRoleOn(reader, space)).toBe('read');
    expect((await c.patch(`/v1/collections/${top}`, { defaultLevel: 'edit' })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBe('edit');
    expect((await c.patch(`/v1/collections/${top}`, { defaultLevel: null })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBeNull();
    expect((await reader.client.get(`/v1/collections/${top}`)).status).toBe(404);
  });

  it('a new collection passes its parent’s grants on at once; deleted, it is gone at once', async () => {
    const { org, c, top } = await world();
    const reader = await h.member(org.id, 'read');
    await c.post(`/v1/collections/${top}/permissions`, { role: 'edit', users: [reader.user.id] });
    expect((await reader.client.get(`/v1/collections/${top}`)).status).toBe(200);
    const mid = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Mid', parent: top })).body.id as string;
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Below', parent: mid })).body.id as string;
    // The space inherits from `mid`, which inherits the grant on `top`: only a tree with `mid` in it says edit.
    expect(await roleOn(reader.client, space)).toBe('edit');
    expect((await c.delete(`/v1/collections/${mid}`)).status).toBe(204);
    expect((await reader.client.get(`/v1/collections/${mid}`)).status).toBe(404);
    expect(await roleOn(reader.client, space)).toBeNull();
  });

  it('a collection transferred to another organization resolves there at once', async () => {
    const { org, c, top, space } = await world();
    const target = await h.org();
    // The admin of the first organization administers the second too.
    expect(
      (
        await target.admin.client.post(`/v1/orgs/${target.id}/invites`, {
          emails: [org.admin.user.email],
          role: 'admin',
        })
      ).status,
    ).toBe(200);
    const reader = await h.member(org.id, 'read');
    const targetReader = await h.member(target.id, 'read');
    expect(await cachedRoleOn(reader, space)).toBe('read');
    expect(await cachedRoleOn(targetReader, space)).toBeNull();
    expect((await c.post(`/v1/collections/${top}/transfer`, { organization: target.id })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBeNull();
    expect(await roleOn(targetReader.client, space)).toBe('read');
  });
});

describe('the space itself', () => {
  it('visibility and default level changed are seen by the next read', async () => {
    const { org, c, space } = await world();
    const reader = await h.member(org.id, 'read');
    expect(await cachedRoleOn(reader, space)).toBe('read');
    expect((await reader.client.get(`/v1/spaces/${space}`)).body.visibility).toBe('in-collection');
    expect((await c.patch(`/v1/spaces/${space}`, { visibility: 'public' })).status).toBe(200);
    const read = await reader.client.get(`/v1/spaces/${space}`);
    expect(read.body.visibility).toBe('public');
    expect(read.body.urls.public).toBeDefined();
    expect((await c.patch(`/v1/spaces/${space}`, { defaultLevel: null })).status).toBe(200);
    expect(await roleOn(reader.client, space)).toBeNull();
  });

  it('counters are read with the space: a new change request is counted on the next read', async () => {
    const { c, space } = await world();
    const before = (await c.get(`/v1/spaces/${space}`)).body;
    expect(before.changeRequests).toBe(0);
    expect((await c.post(`/v1/spaces/${space}/change-requests`, { subject: 'One' })).status).toBe(201);
    const after = (await c.get(`/v1/spaces/${space}`)).body;
    expect(after.changeRequests).toBe(1);
    expect(after.changeRequestsOpen).toBe(1);
  });
});
