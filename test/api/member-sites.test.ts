/**
 * `Member.sites`: how many of the organization's sites the member can reach, i.e. the number of
 * sites whose permissions aggregate lists them (a role on at least one live space the site
 * publishes, through the organization role, inheritance, a direct grant or a team).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('member sites', () => {
  it('counts the sites each member reaches, the same as the sites aggregates say', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const reader = await h.member(org.id, 'read');
    const teamReader = await h.member(org.id, 'read');
    const guest = await h.member(org.id, null);
    const disabled = await h.member(org.id, 'read');
    await h.db.updateTable('members').set({ disabled: 1 }).where('user_id', '=', disabled.user.id).execute();

    const open = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Open' })).body.id;
    const closed = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Closed' })).body.id;
    const gone = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Gone' })).body.id;
    // `Closed` gives nothing by inheritance: only explicit grants.
    expect((await c.patch(`/v1/spaces/${closed}`, { defaultLevel: null })).status).toBe(200);
    const team = (await c.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [teamReader.user.id] })).body.id;
    expect((await c.post(`/v1/spaces/${closed}/permissions`, { role: 'read', teams: [team] })).status).toBe(204);
    expect((await c.post(`/v1/spaces/${closed}/permissions`, { role: 'read', users: [guest.user.id] })).status).toBe(
      204,
    );

    const site = async (title: string, spaces: string[]) =>
      (await c.post(`/v1/orgs/${org.id}/sites`, { title, spaces })).body.id as string;
    const sites = [
      await site('Open site', [open]),
      await site('Closed site', [closed]),
      await site('Both', [open, closed]),
      await site('Gone site', [gone]),
      await site('Empty', []),
    ];
    expect((await c.delete(`/v1/spaces/${gone}`)).status).toBe(204);

    const expected = new Map([
      [org.admin.user.id, 3],
      [reader.user.id, 2],
      [teamReader.user.id, 3],
      [guest.user.id, 2],
      [disabled.user.id, 0],
    ]);
    const list = await c.get(`/v1/orgs/${org.id}/members`);
    expect(list.status).toBe(200);
    const actual = new Map(list.body.items.map((m: { id: string; sites: number }) => [m.id, m.sites]));
    expect(actual).toEqual(expected);
    // The same on a single member and in a team's member list.
    expect((await c.get(`/v1/orgs/${org.id}/members/${guest.user.id}`)).body.sites).toBe(2);
    const teamMembers = await c.get(`/v1/orgs/${org.id}/teams/${team}/members`);
    expect(teamMembers.body.items[0].organization.sites).toBe(3);

    // Cross-check: each member's count is the number of site aggregates that list them.
    const listed = new Map<string, number>();
    for (const id of sites) {
      const aggregate = await c.get(`/v1/orgs/${org.id}/sites/${id}/permissions/aggregate`);
      expect(aggregate.status).toBe(200);
      for (const entry of aggregate.body.items as Array<{ user: { id: string } }>) {
        listed.set(entry.user.id, (listed.get(entry.user.id) ?? 0) + 1);
      }
    }
    for (const [userId, n] of expected) expect(listed.get(userId) ?? 0, userId).toBe(n);
  });
});
