import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

async function setup() {
  const org = await h.org();
  const c = org.admin.client;
  const top = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Top' })).body.id as string;
  const mid = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Mid', parent: top })).body.id as string;
  const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S', parent: mid })).body.id as string;
  return { org, c, top, mid, space };
}

const roleOf = async (u: TestUser, space: string) => {
  const res = await u.client.get(`/v1/spaces/${space}`);
  if (res.status === 404) return null;
  const p = res.body.permissions;
  return p.admin ? 'admin' : p.review ? 'review+' : p.edit ? 'edit' : p.comment ? 'comment' : 'read';
};

describe('the permission model through HTTP', () => {
  it('direct grant, team grant, inheritance through two levels, defaultLevel, admin, guests, removal by null', async () => {
    const { org, c, top, mid, space } = await setup();
    const reader = await h.member(org.id, 'read');
    expect(await roleOf(reader, space)).toBe('read');

    await c.post(`/v1/collections/${top}/permissions`, { role: 'edit', users: [reader.user.id] });
    expect(await roleOf(reader, space)).toBe('edit');

    const teamMember = await h.member(org.id, 'read');
    const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [teamMember.user.id] })).body.id;
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'comment', teams: [team] });
    expect(await roleOf(teamMember, space)).toBe('comment');

    await c.patch(`/v1/collections/${mid}`, { defaultLevel: 'read' });
    expect(await roleOf(reader, space)).toBe('read');
    await c.patch(`/v1/collections/${mid}`, { defaultLevel: 'inherit' });
    expect(await roleOf(reader, space)).toBe('edit');

    await c.patch(`/v1/spaces/${space}`, { defaultLevel: null });
    expect(await roleOf(reader, space)).toBeNull();
    expect(await roleOf(teamMember, space)).toBe('comment');
    expect(await roleOf(org.admin, space)).toBe('admin');

    const guest = await h.member(org.id, null);
    expect(await roleOf(guest, space)).toBeNull();
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'read', users: [guest.user.id] });
    expect(await roleOf(guest, space)).toBe('read');
    expect((await guest.client.get(`/v1/orgs/${org.id}/spaces`)).body.items.map((s: { id: string }) => s.id)).toEqual([
      space,
    ]);
    await c.patch(`/v1/spaces/${space}/permissions/users/${guest.user.id}`, { role: null });
    expect(await roleOf(guest, space)).toBeNull();
  });

  it('invites users and teams; lists, patches and removes grants; validates input', async () => {
    const { org, c, space } = await setup();
    const [a, b] = [await h.member(org.id, 'read'), await h.member(org.id, 'read')];
    const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T' })).body.id;
    expect(
      (await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [a.user.id, b.user.id], teams: [team] }))
        .status,
    ).toBe(204);
    const users = await c.get(`/v1/spaces/${space}/permissions/users?limit=1`);
    expect(users.body.count).toBe(2);
    expect(users.body.items[0]).toMatchObject({ permission: 'edit', user: { object: 'user' } });
    const more = await c.get(`/v1/spaces/${space}/permissions/users?limit=1&page=${users.body.next.page}`);
    expect(more.body.items).toHaveLength(1);
    expect(more.body.next).toBeUndefined();
    const teams = await c.get(`/v1/spaces/${space}/permissions/teams`);
    expect(teams.body.items).toEqual([
      expect.objectContaining({ permission: 'edit', team: expect.objectContaining({ id: team, spaces: 1 }) }),
    ]);
    expect((await c.get(`/v1/orgs/${org.id}/members/${a.user.id}`)).body.spaces).toBe(1);

    expect((await c.patch(`/v1/spaces/${space}/permissions/users/${a.user.id}`, { role: 'review' })).status).toBe(204);
    expect((await c.patch(`/v1/spaces/${space}/permissions/teams/${team}`, { role: 'read' })).status).toBe(204);
    expect((await c.delete(`/v1/spaces/${space}/permissions/users/${b.user.id}`)).status).toBe(204);
    // Removing again is a no-op, as in the official API.
    expect((await c.delete(`/v1/spaces/${space}/permissions/users/${b.user.id}`)).status).toBe(204);
    expect((await c.patch(`/v1/spaces/${space}/permissions/users/${b.user.id}`, { role: 'read' })).status).toBe(404);
    expect((await c.delete(`/v1/spaces/${space}/permissions/teams/${team}`)).status).toBe(204);
    const after = await c.get(`/v1/spaces/${space}/permissions/users`);
    expect(after.body.items.map((e: { permission: string }) => e.permission)).toEqual(['review']);

    const stranger = await h.user();
    // Unknown users and teams are 404, as the official API answers.
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'read', users: [stranger.user.id] })).status).toBe(
      404,
    );
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'read', teams: ['nope'] })).status).toBe(404);
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'read', users: [], teams: [] })).status).toBe(400);
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'read' })).status).toBe(400);
    expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'boss', users: [a.user.id] })).status).toBe(400);
    expect((await c.post(`/v1/spaces/${space}/permissions`, { users: [a.user.id] })).status).toBe(400);
  });

  it('readers see grants but cannot change them (403); outsiders get 404', async () => {
    const { org, c, top, space } = await setup();
    const reader = await h.member(org.id, 'read');
    await c.post(`/v1/collections/${top}/permissions`, {
      role: 'edit',
      teams: [(await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T' })).body.id],
    });
    expect((await reader.client.get(`/v1/spaces/${space}/permissions/users`)).status).toBe(200);
    expect((await reader.client.get(`/v1/collections/${top}/permissions/teams`)).body.count).toBe(1);
    expect(
      (await reader.client.post(`/v1/spaces/${space}/permissions`, { role: 'admin', users: [reader.user.id] })).status,
    ).toBe(403);
    expect(
      (await reader.client.post(`/v1/collections/${top}/permissions`, { role: 'admin', users: [reader.user.id] }))
        .status,
    ).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(`/v1/spaces/${space}/permissions/users`)).status).toBe(404);
    expect((await outsider.client.get(`/v1/collections/${top}/permissions/aggregate`)).status).toBe(404);
    expect(
      (await outsider.client.post(`/v1/spaces/${space}/permissions`, { role: 'admin', users: [outsider.user.id] }))
        .status,
    ).toBe(404);
  });

  it('aggregate lists every user with access and their effective role, filtered by role', async () => {
    const { org, c, top, space } = await setup();
    const reader = await h.member(org.id, 'read');
    const editor = await h.member(org.id, 'edit');
    const guest = await h.member(org.id, null);
    const lonelyGuest = await h.member(org.id, null);
    await c.post(`/v1/collections/${top}/permissions`, { role: 'review', users: [reader.user.id] });
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'comment', users: [guest.user.id] });
    const all = await c.get(`/v1/spaces/${space}/permissions/aggregate`);
    const roles = Object.fromEntries(
      all.body.items.map((e: { user: { id: string }; permission: string }) => [e.user.id, e.permission]),
    );
    expect(roles).toEqual({
      [org.admin.user.id]: 'admin',
      [reader.user.id]: 'review',
      [editor.user.id]: 'edit',
      [guest.user.id]: 'comment',
    });
    expect(roles[lonelyGuest.user.id]).toBeUndefined();
    const reviewers = await c.get(`/v1/spaces/${space}/permissions/aggregate?role=review`);
    expect(reviewers.body.items.map((e: { user: { id: string } }) => e.user.id)).toEqual([reader.user.id]);
    const colAgg = await c.get(`/v1/collections/${top}/permissions/aggregate?role=comment`);
    expect(colAgg.body.count).toBe(0);
    expect((await c.get(`/v1/spaces/${space}/permissions/aggregate?role=owner`)).status).toBe(400);
  });

  it('aggregate over 500 members pages through each exactly once', async () => {
    const { org, c, space } = await setup();
    const now = new Date().toISOString();
    const users = Array.from({ length: 500 }, (_, i) => ({
      id: `${org.id}-m${String(i).padStart(3, '0')}`,
      email: `${org.id.toLowerCase()}-m${i}@agg.test`,
      display_name: `M ${i}`,
      photo_url: null,
      created_at: now,
    }));
    for (let i = 0; i < 500; i += 100) {
      await h.db
        .insertInto('users')
        .values(users.slice(i, i + 100))
        .execute();
      await h.db
        .insertInto('members')
        .values(
          users.slice(i, i + 100).map((u) => ({
            organization_id: org.id,
            user_id: u.id,
            role: 'read',
            disabled: 0,
            sso: 0,
            joined_at: now,
            last_seen_at: null,
          })),
        )
        .execute();
    }
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await c.get(`/v1/spaces/${space}/permissions/aggregate?limit=120${page ? `&page=${page}` : ''}`);
      expect(res.body.count).toBe(501);
      seen.push(...res.body.items.map((e: { user: { id: string } }) => e.user.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toHaveLength(501);
    expect(new Set(seen).size).toBe(501);
    const members = await c.get(`/v1/orgs/${org.id}/members?limit=1000`);
    expect(members.body.items).toHaveLength(501);
  });

  it("lists a member's spaces with their role, only those the caller can see too", async () => {
    const { org, c, space } = await setup();
    const other = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Other' })).body.id;
    const hidden = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Hidden' })).body.id;
    await c.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
    const m = await h.member(org.id, 'read');
    const peer = await h.member(org.id, 'read');
    await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [m.user.id] });
    await c.post(`/v1/spaces/${hidden}/permissions`, { role: 'read', users: [m.user.id] });
    const asAdmin = await c.get(`/v1/orgs/${org.id}/members/${m.user.id}/spaces?order=asc`);
    expect(
      asAdmin.body.items.map((e: { space: { id: string }; permission: string }) => [e.space.id, e.permission]),
    ).toEqual([
      [space, 'edit'],
      [other, 'read'],
      [hidden, 'read'],
    ]);
    const desc = await c.get(`/v1/orgs/${org.id}/members/${m.user.id}/spaces?limit=1`);
    expect(desc.body.items[0].space.id).toBe(hidden);
    expect(desc.body.count).toBe(3);
    const asPeer = await peer.client.get(`/v1/orgs/${org.id}/members/${m.user.id}/spaces`);
    expect(asPeer.body.items.map((e: { space: { id: string } }) => e.space.id)).not.toContain(hidden);
    expect((await (await h.user()).client.get(`/v1/orgs/${org.id}/members/${m.user.id}/spaces`)).status).toBe(404);
  });
});

describe('counts', () => {
  it("a member's spaces count covers direct grants in this organization only", async () => {
    const a = await h.org();
    const b = await h.org();
    const m = await h.member(a.id, 'read');
    await h.db
      .insertInto('members')
      .values({
        organization_id: b.id,
        user_id: m.user.id,
        role: 'read',
        disabled: 0,
        sso: 0,
        joined_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    const sa = (await a.admin.client.post(`/v1/orgs/${a.id}/spaces`, { title: 'A' })).body.id;
    const sb = (await b.admin.client.post(`/v1/orgs/${b.id}/spaces`, { title: 'B' })).body.id;
    await a.admin.client.post(`/v1/spaces/${sa}/permissions`, { role: 'edit', users: [m.user.id] });
    await b.admin.client.post(`/v1/spaces/${sb}/permissions`, { role: 'edit', users: [m.user.id] });
    expect((await a.admin.client.get(`/v1/orgs/${a.id}/members/${m.user.id}`)).body.spaces).toBe(1);
    await a.admin.client.delete(`/v1/spaces/${sa}`);
    expect((await a.admin.client.get(`/v1/orgs/${a.id}/members/${m.user.id}`)).body.spaces).toBe(0);
  });
});
