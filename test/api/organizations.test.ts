import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('organizations', () => {
  it('lists the organizations of the caller, paged, without guest or foreign ones', async () => {
    const me = await h.user();
    const owned = [];
    for (let i = 0; i < 3; i++) {
      const res = await me.client.post('/v1/orgs', { title: `Mine ${i}` });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`http://bindery.test/v1/orgs/${res.body.id}`);
      owned.push(res.body.id);
    }
    const other = await h.org();
    await h.db
      .insertInto('members')
      .values({
        organization_id: other.id,
        user_id: me.user.id,
        role: null,
        disabled: 0,
        sso: 0,
        joined_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    const first = await me.client.get('/v1/orgs?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items).toHaveLength(2);
    const second = await me.client.get(`/v1/orgs?limit=2&page=${first.body.next.page}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    expect([...first.body.items, ...second.body.items].map((o: { id: string }) => o.id)).toEqual(owned);
  });

  it('gets an organization with every field; outsiders and guests get 404', async () => {
    const org = await h.org({ title: 'Acme Docs' });
    const res = await org.admin.client.get(`/v1/orgs/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'organization',
      id: org.id,
      title: 'Acme Docs',
      emailDomains: [],
      type: 'business',
      defaultRole: 'read',
      sso: false,
      inviteLinks: false,
      urls: { location: `http://bindery.test/v1/orgs/${org.id}`, app: `http://bindery.test/o/${org.id}` },
      permissions: { admin: true, createContent: true },
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    const outsider = await h.user();
    expect((await outsider.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    const guest = await h.member(org.id, null);
    expect((await guest.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    const reader = await h.member(org.id, 'read');
    const asReader = await reader.client.get(`/v1/orgs/${org.id}`);
    expect(asReader.body.permissions).toMatchObject({ admin: false, createContent: false, view: true });
  });

  it('patches every field, within the limits', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const hostname = `h${Date.now().toString(36)}`.slice(0, 12);
    const res = await c.patch(`/v1/orgs/${org.id}`, {
      title: 'New title',
      emailDomains: ['Example.com'],
      hostname,
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site123' },
      logo: 'https://example.com/logo.png',
      sso: true,
      ai: false,
      inviteLinks: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'New title',
      emailDomains: ['example.com'],
      hostname,
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site123' },
      urls: { logo: 'https://example.com/logo.png' },
      sso: true,
      ai: false,
      inviteLinks: true,
    });
    const cleared = await c.patch(`/v1/orgs/${org.id}`, { defaultRole: null, defaultContent: null, logo: null });
    expect(cleared.body.defaultRole).toBeNull();
    expect(cleared.body.defaultContent).toBeUndefined();
    expect(cleared.body.urls.logo).toBeUndefined();
  });

  it.each([
    ['title', 'a', 400],
    ['title', 'ab', 200],
    ['title', 'a'.repeat(255), 200],
    ['title', 'a'.repeat(256), 400],
    ['hostname', 'ab', 400],
    ['hostname', 'abc', 200],
    ['hostname', 'a'.repeat(32), 200],
    ['hostname', 'a'.repeat(33), 400],
    ['defaultRole', 'owner', 400],
    ['logo', 'not a url', 400],
  ])('PATCH %s=%j -> %i', async (field, value, status) => {
    const org = await h.org();
    const unique =
      field === 'hostname' && status === 200 ? `${value}`.slice(0, -6) + Math.random().toString(36).slice(2, 8) : value;
    const res = await org.admin.client.patch(`/v1/orgs/${org.id}`, { [field]: unique });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain(field);
  });

  it('hostname is unique across organizations', async () => {
    const a = await h.org();
    const b = await h.org();
    const hostname = `uniq${Math.random().toString(36).slice(2, 10)}`;
    expect((await a.admin.client.patch(`/v1/orgs/${a.id}`, { hostname })).status).toBe(200);
    const res = await b.admin.client.patch(`/v1/orgs/${b.id}`, { hostname });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('hostname');
  });

  it('only admins patch; members get 403, outsiders 404', async () => {
    const org = await h.org();
    const creator = await h.member(org.id, 'create');
    expect((await creator.client.patch(`/v1/orgs/${org.id}`, { title: 'Nope' })).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.patch(`/v1/orgs/${org.id}`, { title: 'Nope' })).status).toBe(404);
  });

  it('ping updates last-seen and returns signed visitor claims', async () => {
    const org = await h.org();
    const reader = await h.member(org.id, 'read');
    const res = await reader.client.post(`/v1/orgs/${org.id}/ping`);
    expect(res.status).toBe(200);
    expect(res.body.serviceVisitorClaims.split('.')).toHaveLength(3);
    const member = await org.admin.client.get(`/v1/orgs/${org.id}/members/${reader.user.id}`);
    expect(Date.parse(member.body.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    const outsider = await h.user();
    expect((await outsider.client.post(`/v1/orgs/${org.id}/ping`)).status).toBe(404);
  });

  it('says whether the caller owns a team of this organization (permissions.ownTeam)', async () => {
    const org = await h.org();
    const owner = await h.member(org.id, 'read');
    const plain = await h.member(org.id, 'read');
    const team = await org.admin.client.put(`/v1/orgs/${org.id}/teams`, { title: 'Owned', members: [plain.user.id] });
    expect(team.status).toBe(201);
    const put = await org.admin.client.put(`/v1/orgs/${org.id}/teams/${team.body.id}/members/${owner.user.id}`, {
      role: 'owner',
    });
    expect(put.status).toBeLessThan(300);
    expect((await owner.client.get(`/v1/orgs/${org.id}`)).body.permissions.ownTeam).toBe(true);
    expect((await plain.client.get(`/v1/orgs/${org.id}`)).body.permissions.ownTeam).toBe(false);
    // Owning a team of another organization does not count.
    const other = await h.org();
    expect((await other.admin.client.get(`/v1/orgs/${other.id}`)).body.permissions.ownTeam).toBe(false);
  });
});
