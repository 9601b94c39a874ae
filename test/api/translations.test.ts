import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const translationsUrl = (orgId: string) => `/v1/orgs/${orgId}/translations`;

describe('translation settings', () => {
  it('creates (201, Location), reads, updates and deletes (204, then 404)', async () => {
    const org = await h.org();
    const res = await org.admin.client.post(translationsUrl(org.id), { title: 'Docs', languages: ['fr', 'pt-br'] });
    expect(res.status).toBe(201);
    const location = `http://bindery.test${translationsUrl(org.id)}/${res.body.id}`;
    expect(res.headers.location).toBe(location);
    expect(res.body).toMatchObject({
      object: 'translation-settings',
      title: 'Docs',
      languages: ['fr', 'pt-br'],
      permissions: { view: true, edit: true },
      urls: { location },
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    const url = `${translationsUrl(org.id)}/${res.body.id}`;
    expect((await org.admin.client.get(url)).body).toEqual(res.body);

    const renamed = await org.admin.client.put(url, { title: 'Guides' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: res.body.id, title: 'Guides', languages: ['fr', 'pt-br'] });
    expect(renamed.body.updatedAt >= res.body.updatedAt).toBe(true);
    const relanguaged = await org.admin.client.put(url, { title: 'Guides', languages: [] });
    expect(relanguaged.body.languages).toEqual([]);

    expect((await org.admin.client.delete(url)).status).toBe(204);
    expect((await org.admin.client.get(url)).status).toBe(404);
    expect((await org.admin.client.put(url, { title: 'x' })).status).toBe(404);
    expect((await org.admin.client.delete(url)).status).toBe(404);
    const created = await org.admin.client.post(translationsUrl(org.id), { title: 'No languages' });
    expect(created.body.languages).toEqual([]);
  });

  it.each([
    ['', 400],
    ['a', 201],
    ['a'.repeat(100), 201],
    ['a'.repeat(101), 400],
  ])('title %j -> %i on create, the same limit on update', async (title, status) => {
    const org = await h.org();
    const res = await org.admin.client.post(translationsUrl(org.id), { title });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('title');
    const existing = await org.admin.client.post(translationsUrl(org.id), { title: 'ok' });
    const updated = await org.admin.client.put(`${translationsUrl(org.id)}/${existing.body.id}`, { title });
    expect(updated.status).toBe(status === 201 ? 200 : 400);
    if (status === 201) expect(updated.body.title).toBe(title);
  });

  it('accepts only languages of the official enum, each once; refuses unknown fields', async () => {
    const org = await h.org();
    const all = await org.admin.client.post(translationsUrl(org.id), {
      title: 'All',
      languages: ['en', 'zh-tw', 'yue', 'no', 'sl'],
    });
    expect(all.status).toBe(201);
    for (const body of [
      { title: 'x', languages: ['xx'] },
      { title: 'x', languages: ['EN'] },
      { title: 'x', languages: ['en', 'en'] },
      { title: 'x', color: 'red' },
      { languages: ['en'] },
    ]) {
      const res = await org.admin.client.post(translationsUrl(org.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const bad = await org.admin.client.post(translationsUrl(org.id), { title: 'x', languages: ['klingon'] });
    expect(bad.body.error.message).toContain('languages');
    const put = await org.admin.client.put(`${translationsUrl(org.id)}/${all.body.id}`, {
      title: 'x',
      languages: ['?'],
    });
    expect(put.status).toBe(400);
  });

  it('lists in creation order with paging', async () => {
    const org = await h.org();
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      ids.push((await org.admin.client.post(translationsUrl(org.id), { title })).body.id);
    }
    const first = await org.admin.client.get(`${translationsUrl(org.id)}?limit=2`);
    expect(first.body.count).toBe(3);
    const rest = await org.admin.client.get(`${translationsUrl(org.id)}?limit=2&page=${first.body.next.page}`);
    expect(rest.body.next).toBeUndefined();
    expect([...first.body.items, ...rest.body.items].map((t: { id: string }) => t.id).sort()).toEqual([...ids].sort());
    const other = await h.org();
    expect((await other.admin.client.get(translationsUrl(other.id))).body.count).toBe(0);
    expect((await other.admin.client.get(`${translationsUrl(other.id)}/${ids[0]}`)).status).toBe(404);
  });

  it('members read, the create role and above write; outsiders and guests get 404', async () => {
    const org = await h.org();
    const created = await org.admin.client.post(translationsUrl(org.id), { title: 'Shared' });
    const url = `${translationsUrl(org.id)}/${created.body.id}`;
    for (const [role, edit] of [
      ['admin', true],
      ['create', true],
      ['review', false],
      ['edit', false],
      ['comment', false],
      ['read', false],
    ] as const) {
      const member = await h.member(org.id, role);
      const got = await member.client.get(url);
      expect(got.status).toBe(200);
      expect(got.body.permissions, role).toEqual({ view: true, edit });
      expect((await member.client.get(translationsUrl(org.id))).body.items[0].permissions.edit).toBe(edit);
      expect((await member.client.put(url, { title: `by ${role}` })).status, role).toBe(edit ? 200 : 403);
      expect((await member.client.post(translationsUrl(org.id), { title: role })).status, role).toBe(edit ? 201 : 403);
      if (!edit) expect((await member.client.delete(url)).status).toBe(403);
    }
    const outsider = await h.user();
    const guest = await h.member(org.id, null);
    for (const client of [outsider.client, guest.client]) {
      expect((await client.get(translationsUrl(org.id))).status).toBe(404);
      expect((await client.get(url)).status).toBe(404);
      expect((await client.post(translationsUrl(org.id), { title: 'x' })).status).toBe(404);
      expect((await client.put(url, { title: 'x' })).status).toBe(404);
      expect((await client.delete(url)).status).toBe(404);
    }
    const readOnly = await h.member(org.id, 'admin', { scopes: ['organization:read'] });
    expect((await readOnly.client.get(url)).status).toBe(200);
    expect((await readOnly.client.put(url, { title: 'x' })).status).toBe(403);
  });
});
