import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const teamsUrl = (orgId: string) => `/v1/orgs/${orgId}/teams`;

describe('teams', () => {
  it('creates with PUT (201, Location, initial members by id or e-mail) and reads it back', async () => {
    const org = await h.org();
    const a = await h.member(org.id, 'read');
    const b = await h.member(org.id, 'edit');
    const res = await org.admin.client.put(teamsUrl(org.id), { title: 'Writers', members: [a.user.id, b.user.email] });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${teamsUrl(org.id)}/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    const got = await a.client.get(`${teamsUrl(org.id)}/${res.body.id}`);
    expect(got.body).toMatchObject({ id: res.body.id, members: 2, permissions: { admin: false } });
    const stranger = await h.user();
    const bad = await org.admin.client.put(teamsUrl(org.id), { title: 'X', members: [stranger.user.id] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('members');
  });

  it.each([
    ['', 400],
    ['a', 201],
    ['a'.repeat(64), 201],
    ['a'.repeat(65), 400],
  ])('title %j -> %i on create, same limit on patch', async (title, status) => {
    const org = await h.org();
    const res = await org.admin.client.put(teamsUrl(org.id), { title });
    expect(res.status).toBe(status);
    const team = await org.admin.client.put(teamsUrl(org.id), { title: 'ok' });
    const patched = await org.admin.client.patch(`${teamsUrl(org.id)}/${team.body.id}`, { title });
    expect(patched.status).toBe(status === 201 ? 200 : 400);
    if (status === 201) expect(patched.body.title).toBe(title);
  });

  it('lists with the title filter (case-insensitive contains) and paging', async () => {
    const org = await h.org();
    for (const title of ['Alpha', 'beta', 'Gamma', 'ALPHABET', 'delta']) {
      await org.admin.client.put(teamsUrl(org.id), { title });
    }
    const all = await org.admin.client.get(`${teamsUrl(org.id)}?limit=2`);
    expect(all.body.count).toBe(5);
    expect(all.body.items).toHaveLength(2);
    const rest = await org.admin.client.get(`${teamsUrl(org.id)}?limit=10&page=${all.body.next.page}`);
    expect(rest.body.items).toHaveLength(3);
    expect(rest.body.next).toBeUndefined();
    const alpha = await org.admin.client.get(`${teamsUrl(org.id)}?title=alPHa`);
    expect(alpha.body.items.map((t: { title: string }) => t.title).sort()).toEqual(['ALPHABET', 'Alpha']);
  });

  it('owner filter keeps the teams that member can manage', async () => {
    const org = await h.org();
    const owner = await h.member(org.id, 'read');
    const t1 = await org.admin.client.put(teamsUrl(org.id), { title: 'One' });
    await org.admin.client.put(teamsUrl(org.id), { title: 'Two' });
    await org.admin.client.put(`${teamsUrl(org.id)}/${t1.body.id}/members/${owner.user.id}`, { role: 'owner' });
    const mine = await org.admin.client.get(`${teamsUrl(org.id)}?owner=${owner.user.id}`);
    expect(mine.body.items.map((t: { id: string }) => t.id)).toEqual([t1.body.id]);
    const admins = await org.admin.client.get(`${teamsUrl(org.id)}?owner=${org.admin.user.id}`);
    expect(admins.body.count).toBe(2);
    expect((await org.admin.client.get(`${teamsUrl(org.id)}?owner=nobody`)).status).toBe(400);
    const asOwner = await owner.client.get(teamsUrl(org.id));
    const flags = Object.fromEntries(
      asOwner.body.items.map((t: { title: string; permissions: { admin: boolean } }) => [t.title, t.permissions.admin]),
    );
    expect(flags).toEqual({ One: true, Two: false });
  });

  it('only admins create, rename and delete; outsiders get 404', async () => {
    const org = await h.org();
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.put(teamsUrl(org.id), { title: 'X' })).status).toBe(403);
    const team = await org.admin.client.put(teamsUrl(org.id), { title: 'X' });
    const url = `${teamsUrl(org.id)}/${team.body.id}`;
    expect((await reader.client.patch(url, { title: 'Y' })).status).toBe(403);
    expect((await reader.client.delete(url)).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(url)).status).toBe(404);
    expect((await outsider.client.delete(url)).status).toBe(404);
    expect((await org.admin.client.delete(url)).status).toBe(204);
    expect((await org.admin.client.get(url)).status).toBe(404);
    expect((await org.admin.client.delete(url)).status).toBe(404);
    const otherOrg = await h.org();
    const foreign = await otherOrg.admin.client.put(teamsUrl(otherOrg.id), { title: 'Theirs' });
    expect((await org.admin.client.get(`${teamsUrl(org.id)}/${foreign.body.id}`)).status).toBe(404);
  });
});

describe('team members', () => {
  it('bulk update: add and remove by id or e-mail, memberships map, add+remove ends removed', async () => {
    const org = await h.org();
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => h.member(org.id, 'read')));
    const team = await org.admin.client.put(teamsUrl(org.id), { title: 'T', members: [a!.user.id] });
    const url = `${teamsUrl(org.id)}/${team.body.id}/members`;
    const res = await org.admin.client.put(url, {
      add: [b!.user.id, c!.user.email, d!.user.id],
      remove: [a!.user.email, d!.user.id],
      memberships: { [b!.user.id]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    const list = await org.admin.client.get(url);
    const roles = Object.fromEntries(
      list.body.items.map((e: { organization: { id: string }; team: { role: string } }) => [
        e.organization.id,
        e.team.role,
      ]),
    );
    expect(roles).toEqual({ [b!.user.id]: 'owner', [c!.user.id]: 'member' });
    expect(list.body.items[0]).toMatchObject({ organization: { object: 'member' }, permissions: { view: true } });
    const bad = await org.admin.client.put(url, { add: ['ghost@example.test'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('ghost@example.test');
  });

  it('adds or updates one member, removes one, pages the list', async () => {
    const org = await h.org();
    const members = await Promise.all([1, 2, 3].map(() => h.member(org.id, 'read')));
    const team = await org.admin.client.put(teamsUrl(org.id), { title: 'T' });
    const base = `${teamsUrl(org.id)}/${team.body.id}/members`;
    for (const m of members) expect((await org.admin.client.put(`${base}/${m.user.id}`, {})).status).toBe(204);
    expect((await org.admin.client.put(`${base}/${members[0]!.user.id}`, { role: 'owner' })).status).toBe(204);
    expect((await org.admin.client.put(`${base}/${members[0]!.user.id}`, { role: 'boss' })).status).toBe(400);
    const page1 = await org.admin.client.get(`${base}?limit=2`);
    const page2 = await org.admin.client.get(`${base}?limit=2&page=${page1.body.next.page}`);
    expect(page1.body.count).toBe(3);
    expect(
      [...page1.body.items, ...page2.body.items].map((e: { organization: { id: string } }) => e.organization.id),
    ).toEqual(members.map((m) => m.user.id));
    expect(page1.body.items[0].team.role).toBe('owner');
    expect((await org.admin.client.delete(`${base}/${members[1]!.user.id}`)).status).toBe(204);
    expect((await org.admin.client.delete(`${base}/${members[1]!.user.id}`)).status).toBe(404);
    expect((await org.admin.client.get(`${teamsUrl(org.id)}/${team.body.id}`)).body.members).toBe(2);
    const stranger = await h.user();
    expect((await org.admin.client.put(`${base}/${stranger.user.id}`, {})).status).toBe(400);
  });

  it('a team owner manages that team only; plain members get 403', async () => {
    const org = await h.org();
    const owner = await h.member(org.id, 'read');
    const plain = await h.member(org.id, 'read');
    const target = await h.member(org.id, 'read');
    const mine = await org.admin.client.put(teamsUrl(org.id), { title: 'Mine' });
    const other = await org.admin.client.put(teamsUrl(org.id), { title: 'Other' });
    await org.admin.client.put(`${teamsUrl(org.id)}/${mine.body.id}/members/${owner.user.id}`, { role: 'owner' });
    await org.admin.client.put(`${teamsUrl(org.id)}/${mine.body.id}/members/${plain.user.id}`, {});
    const mineUrl = `${teamsUrl(org.id)}/${mine.body.id}/members`;
    expect((await owner.client.put(`${mineUrl}/${target.user.id}`, {})).status).toBe(204);
    expect((await owner.client.put(mineUrl, { remove: [target.user.id] })).status).toBe(204);
    expect((await owner.client.put(`${teamsUrl(org.id)}/${other.body.id}/members/${target.user.id}`, {})).status).toBe(
      403,
    );
    expect((await owner.client.patch(`${teamsUrl(org.id)}/${mine.body.id}`, { title: 'Renamed' })).status).toBe(403);
    expect((await plain.client.put(`${mineUrl}/${target.user.id}`, {})).status).toBe(403);
    expect((await plain.client.delete(`${mineUrl}/${owner.user.id}`)).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(mineUrl)).status).toBe(404);
  });
});
