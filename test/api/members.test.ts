import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect.js';
import { tryCreateExtension } from '../../src/db/migrations/0015_member_search.js';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** Inserts `n` members directly, with distinct joinedAt times, returning their ids in join order. */
async function seedMembers(orgId: string, n: number, options: { seenEvery?: number } = {}) {
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  const ids: string[] = [];
  const users = [];
  const members = [];
  for (let i = 0; i < n; i++) {
    const id = `${orgId}-u${String(i).padStart(4, '0')}`;
    ids.push(id);
    users.push({
      id,
      email: `${id.toLowerCase()}@seed.test`,
      display_name: `Seed ${String(i).padStart(4, '0')}`,
      photo_url: null,
      created_at: new Date(base).toISOString(),
    });
    members.push({
      organization_id: orgId,
      user_id: id,
      role: i % 2 === 0 ? 'read' : 'edit',
      disabled: 0,
      sso: 0,
      joined_at: new Date(base + i * 1000).toISOString(),
      last_seen_at:
        options.seenEvery && i % options.seenEvery === 0 ? new Date(base + (n - i) * 1000).toISOString() : null,
    });
  }
  for (let i = 0; i < n; i += 200) {
    await h.db
      .insertInto('users')
      .values(users.slice(i, i + 200))
      .execute();
    await h.db
      .insertInto('members')
      .values(members.slice(i, i + 200))
      .execute();
  }
  return ids;
}

describe('member list', () => {
  it('walks 250 members with limit 100, each exactly once, next absent at the end', async () => {
    const org = await h.org();
    const ids = await seedMembers(org.id, 250);
    const seen: string[] = [];
    let url = `/v1/orgs/${org.id}/members?limit=100`;
    let pages = 0;
    for (;;) {
      const res = await org.admin.client.get(url);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(251);
      seen.push(...res.body.items.map((m: { id: string }) => m.id));
      pages++;
      if (!res.body.next) break;
      url = `/v1/orgs/${org.id}/members?limit=100&page=${res.body.next.page}`;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(251);
    expect(new Set(seen).size).toBe(251);
    // Default order is joinedAt descending: newest first, the admin (joined now) on top.
    expect(seen[0]).toBe(org.admin.user.id);
    expect(seen.slice(1)).toEqual([...ids].reverse());
  });

  it('filters by role, guest and search; sorts by joinedAt, lastSeenAt and name in both orders', async () => {
    const org = await h.org();
    const ids = await seedMembers(org.id, 12, { seenEvery: 3 });
    await h.member(org.id, null);
    const c = org.admin.client;
    const get = async (q: string) => (await c.get(`/v1/orgs/${org.id}/members?${q}`)).body;

    const editors = await get('role=edit');
    expect(editors.count).toBe(6);
    expect(editors.items.every((m: { role: string }) => m.role === 'edit')).toBe(true);
    expect((await get('role=guest')).items.map((m: { role: null }) => m.role)).toEqual([null]);
    expect((await get('role=admin')).count).toBe(1);
    expect((await c.get(`/v1/orgs/${org.id}/members?role=owner`)).status).toBe(400);

    expect((await get('search=SEED%200003')).items.map((m: { id: string }) => m.id)).toEqual([ids[3]]);
    expect((await get(`search=${encodeURIComponent(`${ids[5]}@`.toLowerCase())}`)).items).toHaveLength(1);
    expect((await get('search=%25')).count).toBe(0);
    // Anywhere in the name or the address, in any case (not only a prefix).
    expect((await get('search=ED%200003')).items.map((m: { id: string }) => m.id)).toEqual([ids[3]]);
    expect((await get('search=SEED.TEST')).count).toBe(12);

    const asc = await get('order=asc&limit=3');
    expect(asc.items.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 3));

    const seen = await get('sort=lastSeenAt');
    expect(seen.count).toBe(4);
    // Seen later = earlier in the seed (see seedMembers), descending by default.
    expect(seen.items.map((m: { id: string }) => m.id)).toEqual([ids[0], ids[3], ids[6], ids[9]]);
    const seenAsc = await get('sort=lastSeenAt&order=asc&limit=2');
    expect(seenAsc.items.map((m: { id: string }) => m.id)).toEqual([ids[9], ids[6]]);
    const seenAsc2 = await get(`sort=lastSeenAt&order=asc&limit=2&page=${seenAsc.next.page}`);
    expect(seenAsc2.items.map((m: { id: string }) => m.id)).toEqual([ids[3], ids[0]]);

    const byName = await get('sort=name&order=asc&role=read');
    expect(byName.items.map((m: { user: { displayName: string } }) => m.user.displayName)).toEqual(
      [0, 2, 4, 6, 8, 10].map((i) => `Seed ${String(i).padStart(4, '0')}`),
    );
    expect((await c.get(`/v1/orgs/${org.id}/members?sort=age`)).status).toBe(400);
    expect((await c.get(`/v1/orgs/${org.id}/members?order=up`)).status).toBe(400);
  });

  it('is visible to members only', async () => {
    const org = await h.org();
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(`/v1/orgs/${org.id}/members`)).status).toBe(200);
    const guest = await h.member(org.id, null);
    expect((await guest.client.get(`/v1/orgs/${org.id}/members`)).status).toBe(404);
    expect((await (await h.user()).client.get(`/v1/orgs/${org.id}/members`)).status).toBe(404);
  });
});

describe('one member', () => {
  it('gets a member with the Member fields and true counts', async () => {
    const org = await h.org();
    const m = await h.member(org.id, 'comment');
    const team = await org.admin.client.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [m.user.id] });
    expect(team.status).toBe(201);
    const res = await org.admin.client.get(`/v1/orgs/${org.id}/members/${m.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'member',
      id: m.user.id,
      role: 'comment',
      user: { object: 'user', id: m.user.id, email: m.user.email },
      disabled: false,
      sso: false,
      teams: 1,
      spaces: 0,
    });
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/members/nobody`)).status).toBe(404);
  });

  it("counts only this organization's teams and granted spaces, not deleted spaces", async () => {
    const [org, other] = await Promise.all([h.org(), h.org()]);
    const m = await h.member(org.id, 'read');
    const invited = await other.admin.client.post(`/v1/orgs/${other.id}/invites`, { emails: [m.user.email] });
    expect(invited.body.invited).toBe(1);
    const grantAll = async (o: typeof org, spaces: number) => {
      const c = o.admin.client;
      expect((await c.put(`/v1/orgs/${o.id}/teams`, { title: 'T', members: [m.user.id] })).status).toBe(201);
      const ids: string[] = [];
      for (let i = 0; i < spaces; i++) {
        const space = (await c.post(`/v1/orgs/${o.id}/spaces`, { title: `S${i}` })).body.id as string;
        expect((await c.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [m.user.id] })).status).toBe(
          204,
        );
        ids.push(space);
      }
      return ids;
    };
    const [mine] = await Promise.all([grantAll(org, 3), grantAll(other, 2)]);
    expect((await org.admin.client.delete(`/v1/spaces/${mine[0]}`)).status).toBe(204);
    const read = async (o: typeof org) => (await o.admin.client.get(`/v1/orgs/${o.id}/members/${m.user.id}`)).body;
    expect(await read(org)).toMatchObject({ teams: 1, spaces: 2 });
    expect(await read(other)).toMatchObject({ teams: 1, spaces: 2 });
  });

  it('admins change roles (null makes a guest); others get 403; the last admin stays', async () => {
    const org = await h.org();
    const m = await h.member(org.id, 'read');
    const c = org.admin.client;
    expect((await c.patch(`/v1/orgs/${org.id}/members/${m.user.id}`, { role: 'edit' })).body.role).toBe('edit');
    expect((await c.patch(`/v1/orgs/${org.id}/members/${m.user.id}`, { role: null })).body.role).toBeNull();
    expect((await c.patch(`/v1/orgs/${org.id}/members/${m.user.id}`, { role: 'boss' })).status).toBe(400);
    const editor = await h.member(org.id, 'edit');
    expect((await editor.client.patch(`/v1/orgs/${org.id}/members/${m.user.id}`, { role: 'admin' })).status).toBe(403);
    const demote = await c.patch(`/v1/orgs/${org.id}/members/${org.admin.user.id}`, { role: 'read' });
    expect(demote.status).toBe(409);
    expect((await c.patch(`/v1/orgs/${org.id}/members/${editor.user.id}`, { role: 'admin' })).status).toBe(200);
    expect((await c.patch(`/v1/orgs/${org.id}/members/${org.admin.user.id}`, { role: 'read' })).status).toBe(200);
  });

  it('removes a member (and their team memberships); members may leave; others 403', async () => {
    const org = await h.org();
    const m = await h.member(org.id, 'read');
    const other = await h.member(org.id, 'read');
    const team = await org.admin.client.put(`/v1/orgs/${org.id}/teams`, { title: 'T', members: [m.user.id] });
    expect((await other.client.delete(`/v1/orgs/${org.id}/members/${m.user.id}`)).status).toBe(403);
    expect((await org.admin.client.delete(`/v1/orgs/${org.id}/members/${m.user.id}`)).status).toBe(204);
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/members/${m.user.id}`)).status).toBe(404);
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/teams/${team.body.id}`)).body.members).toBe(0);
    expect((await other.client.delete(`/v1/orgs/${org.id}/members/${other.user.id}`)).status).toBe(204);
    expect((await org.admin.client.delete(`/v1/orgs/${org.id}/members/${org.admin.user.id}`)).status).toBe(409);
  });

  it('sets a member as SSO (admin only)', async () => {
    const org = await h.org();
    const m = await h.member(org.id, 'read');
    expect((await m.client.post(`/v1/orgs/${org.id}/members/${m.user.id}/sso`)).status).toBe(403);
    const res = await org.admin.client.post(`/v1/orgs/${org.id}/members/${m.user.id}/sso`);
    expect(res.status).toBe(200);
    expect(res.body.sso).toBe(true);
  });

  it("lists a member's teams with the title filter", async () => {
    const org = await h.org();
    const m = await h.member(org.id, 'read');
    const c = org.admin.client;
    for (const title of ['Writers', 'Reviewers', 'Design']) {
      await c.put(`/v1/orgs/${org.id}/teams`, { title, members: [m.user.id] });
    }
    await c.put(`/v1/orgs/${org.id}/teams`, { title: 'Others' });
    const all = await c.get(`/v1/orgs/${org.id}/members/${m.user.id}/teams`);
    expect(all.body.count).toBe(3);
    expect(all.body.items[0]).toMatchObject({ team: { object: 'team', title: 'Design' }, member: { role: 'member' } });
    const filtered = await c.get(`/v1/orgs/${org.id}/members/${m.user.id}/teams?title=ERS`);
    expect(filtered.body.items.map((e: { team: { title: string } }) => e.team.title)).toEqual(['Reviewers', 'Writers']);
  });
});

describe('invites', () => {
  it('invites by e-mail with roles, creating users, skipping existing members', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const res = await c.post(`/v1/orgs/${org.id}/invites`, {
      emails: ['new.person@example.test', { email: 'Editor@Example.test', role: 'edit' }, org.admin.user.email],
      role: 'comment',
    });
    expect(res.status).toBe(200);
    expect(res.body.invited).toBe(2);
    const members = await c.get(`/v1/orgs/${org.id}/members?search=example.test&sort=name&order=asc`);
    const roles = Object.fromEntries(
      members.body.items.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role]),
    );
    expect(roles).toMatchObject({ 'new.person@example.test': 'comment', 'editor@example.test': 'edit' });
    expect((await c.post(`/v1/orgs/${org.id}/invites`, { emails: ['not-an-email'] })).status).toBe(400);
    expect((await c.post(`/v1/orgs/${org.id}/invites`, { emails: [] })).status).toBe(400);
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.post(`/v1/orgs/${org.id}/invites`, { emails: ['x@example.test'] })).status).toBe(403);
  });
});

// Migration 0015 indexes the search: trigram GIN indexes on PostgreSQL, an FTS5 trigram table kept
// by triggers on SQLite (for searches of 3+ characters). Same results as a scan, on both.
describe('member search', () => {
  async function addUser(orgId: string, id: string, email: string, displayName: string) {
    const now = new Date().toISOString();
    await h.db
      .insertInto('users')
      .values({ id, email, display_name: displayName, photo_url: null, created_at: now })
      .execute();
    await h.db
      .insertInto('members')
      .values({
        organization_id: orgId,
        user_id: id,
        role: 'read',
        disabled: 0,
        sso: 0,
        joined_at: now,
        last_seen_at: null,
      })
      .execute();
  }

  it('finds a middle substring of the name or the address in any case, wildcards literally, short searches too', async () => {
    const org = await h.org();
    const p = org.id;
    await addUser(org.id, `${p}-a`, `${p}-ada.lovelace@analytical.test`, 'Ada Lovelace');
    await addUser(org.id, `${p}-b`, `${p}-grace@navy.test`, 'Grace 50% Hopper_x');
    await addUser(org.id, `${p}-c`, `${p}-other@navy.test`, 'Grace 50X HopperYqz');
    await addUser(org.id, `${p}-d`, `${p}-quote@navy.test`, 'Say "hi" Ü');
    const ids = async (search: string) => {
      const res = await org.admin.client.get(`/v1/orgs/${org.id}/members?search=${encodeURIComponent(search)}`);
      expect(res.status).toBe(200);
      return res.body.items.map((m: { id: string }) => m.id).sort();
    };
    expect(await ids('LOVEL')).toEqual([`${p}-a`]);
    expect(await ids('aNaLyTiCaL.T')).toEqual([`${p}-a`]);
    expect(await ids('50% hopper_')).toEqual([`${p}-b`]);
    expect(await ids('0_ h')).toEqual([]);
    expect(await ids('%')).toEqual([`${p}-b`]);
    expect(await ids('r_')).toEqual([`${p}-b`]);
    expect(await ids('yQZ')).toEqual([`${p}-c`]); // three letters: a random name of another member holds two by chance
    expect(await ids('"HI"')).toEqual([`${p}-d`]);
    // Non-ASCII as before the index: PostgreSQL's lower() folds it; SQLite's folds ASCII only, so
    // the lowered search ('ü') does not match the stored 'Ü' (the index finds it, the LIKE drops it).
    const folded = dialectOf(h.db) === 'postgres' ? [`${p}-d`] : [];
    expect(await ids('" ü')).toEqual(folded);
    expect(await ids('" Ü')).toEqual(folded);
    expect(await ids('navy.test')).toEqual([`${p}-b`, `${p}-c`, `${p}-d`]);
  });

  it('sees users added, renamed, re-addressed and removed on the very next search', async () => {
    const org = await h.org();
    const p = org.id;
    const ids = async (search: string) => {
      const res = await org.admin.client.get(`/v1/orgs/${org.id}/members?search=${encodeURIComponent(search)}`);
      return res.body.items.map((m: { id: string }) => m.id);
    };
    expect(await ids('Marie Curie')).toEqual([]);
    await addUser(org.id, `${p}-m`, `${p}-marie@radium.test`, 'Marie Curie');
    expect(await ids('Marie Curie')).toEqual([`${p}-m`]);
    await h.db.updateTable('users').set({ display_name: 'Marie Skłodowska' }).where('id', '=', `${p}-m`).execute();
    expect(await ids('Marie Curie')).toEqual([]);
    expect(await ids('skłodowska')).toEqual([`${p}-m`]);
    await h.db
      .updateTable('users')
      .set({ email: `${p}-ms@polonium.test` })
      .where('id', '=', `${p}-m`)
      .execute();
    expect(await ids('radium')).toEqual([]);
    expect(await ids('POLONIUM')).toEqual([`${p}-m`]);
    await h.db
      .updateTable('users')
      .set({ photo_url: 'https://example.test/p.png' })
      .where('id', '=', `${p}-m`)
      .execute();
    expect(await ids('polonium')).toEqual([`${p}-m`]);
    await h.db.deleteFrom('members').where('user_id', '=', `${p}-m`).execute();
    await h.db.deleteFrom('users').where('id', '=', `${p}-m`).execute();
    expect(await ids('polonium')).toEqual([]);
    await addUser(org.id, `${p}-m2`, `${p}-ms@polonium.test`, 'Marie Skłodowska');
    expect(await ids('polonium')).toEqual([`${p}-m2`]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'migration: an extension that cannot be created leaves the transaction usable',
    async () => {
      await h.db.transaction().execute(async (trx) => {
        expect(await tryCreateExtension(trx as never, 'bindery_no_such_extension')).toBe(false);
        const row = await sql<{ one: number }>`select 1 as one`.execute(trx);
        expect(row.rows[0]?.one).toBe(1);
      });
    },
  );
});
