/**
 * The API of OpenAPI specifications: slugs, sources and unknown fields refused with 400, duplicates
 * with 409, private URLs refused, PUT creating then updating, deletion, paging of specifications and
 * versions, and what each role (and token scope) may do. How sources are processed is in
 * openapi-processing.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { petstore, processed, serve, specsUrl, startOpenAPIHarness } from '../helpers/openapi.js';

let h: Harness;
beforeAll(async () => {
  // Its own jobs wake its worker at once (src/jobs/wake.ts). On PostgreSQL the slow poll keeps it
  // from claiming the jobs of other files, notably the one openapi-processing.test.ts means to claim
  // itself as a crashed worker.
  h = await startOpenAPIHarness({ jobPollMs: 1_000 });
});
afterAll(async () => h.close());

describe('OpenAPI specifications: API', () => {
  it.each([
    ['', 400],
    ['a', 201],
    ['a'.repeat(100), 201],
    ['a'.repeat(101), 400],
    ['two-words-3', 201],
    ['Upper', 400],
    ['a--b', 400],
    ['-a', 400],
    ['a-', 400],
    ['a_b', 400],
  ])('slug %j -> %i', async (slug, status) => {
    const org = await h.org();
    const res = await org.admin.client.post(specsUrl(org.id), { slug, source: { text: JSON.stringify(petstore()) } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('slug');
    else expect(res.body.slug).toBe(slug);
  });

  it('refuses a duplicate slug (409), bad sources and unknown fields (400)', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    expect((await org.admin.client.post(specsUrl(org.id), { slug: 'dup', source: { text } })).status).toBe(201);
    const dup = await org.admin.client.post(specsUrl(org.id), { slug: 'dup', source: { text } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toContain('dup');
    // The same slug in another organization is fine.
    const other = await h.org();
    expect((await other.admin.client.post(specsUrl(other.id), { slug: 'dup', source: { text } })).status).toBe(201);
    for (const body of [
      { slug: 'x', source: {} },
      { slug: 'x', source: { text: '' } },
      { slug: 'x', source: { url: 'not a url' } },
      { slug: 'x', source: { url: 'ftp://example.com/spec.json' } },
      { slug: 'x', source: { url: `https://example.com/${'a'.repeat(2048)}` } },
      { slug: 'x', source: { text }, extra: 1 },
      { source: { text } },
    ]) {
      const res = await org.admin.client.post(specsUrl(org.id), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('refuses a loopback or private URL when fetchAllowPrivate is false', async () => {
    const guarded = await createHarness();
    try {
      const org = await guarded.org();
      for (const url of [
        serve(petstore()),
        'http://localhost/spec.json',
        'http://[::1]/spec',
        'http://169.254.169.254/',
      ]) {
        const res = await org.admin.client.post(specsUrl(org.id), { slug: 'local', source: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toContain('private or reserved address');
      }
      const put = await org.admin.client.put(`${specsUrl(org.id)}/local`, { source: { url: serve(petstore()) } });
      expect(put.status).toBe(400);
      expect((await org.admin.client.get(specsUrl(org.id))).body.count).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('PUT creates (201, Location) then updates (200); its slug must be valid', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    const created = await org.admin.client.put(`${specsUrl(org.id)}/by-put`, { source: { text } });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`http://bindery.test${specsUrl(org.id)}/by-put`);
    const url = serve(petstore());
    const updated = await org.admin.client.put(`${specsUrl(org.id)}/by-put`, { source: { url } });
    expect(updated.status).toBe(200);
    expect(updated.headers.location).toBeUndefined();
    expect(updated.body).toMatchObject({ id: created.body.id, sourceURL: url, processingState: 'pending' });
    expect((await org.admin.client.put(`${specsUrl(org.id)}/Bad_Slug`, { source: { text } })).status).toBe(400);
    // A slug of 101 characters is a 400 naming the slug (the router accepts long segments).
    expect((await org.admin.client.put(`${specsUrl(org.id)}/${'a'.repeat(101)}`, { source: { text } })).status).toBe(
      400,
    );
    expect((await org.admin.client.put(`${specsUrl(org.id)}/${'a'.repeat(100)}`, { source: { text } })).status).toBe(
      201,
    );
    expect((await org.admin.client.put(`${specsUrl(org.id)}/by-put`, {})).status).toBe(400);
  });

  it('deletes (204), then the specification and its versions are gone (404)', async () => {
    const org = await h.org();
    const specUrl = `${specsUrl(org.id)}/gone`;
    await org.admin.client.post(specsUrl(org.id), { slug: 'gone', source: { text: JSON.stringify(petstore()) } });
    const spec = await processed(org.admin.client, specUrl);
    expect((await org.admin.client.delete(specUrl)).status).toBe(204);
    expect((await org.admin.client.get(specUrl)).status).toBe(404);
    expect((await org.admin.client.get(`${specUrl}/versions`)).status).toBe(404);
    expect((await org.admin.client.get(`${specUrl}/versions/${spec.lastVersion}`)).status).toBe(404);
    expect((await org.admin.client.delete(specUrl)).status).toBe(404);
    // The slug is free again.
    const again = await org.admin.client.post(specsUrl(org.id), { slug: 'gone', source: { text: '{}' } });
    expect(again.status).toBe(201);
  });

  it('pages specifications and versions (newest version first)', async () => {
    const org = await h.org();
    for (const slug of ['c', 'a', 'b']) {
      await org.admin.client.post(specsUrl(org.id), { slug, source: { text: JSON.stringify(petstore(slug)) } });
    }
    const first = await org.admin.client.get(`${specsUrl(org.id)}?limit=2`);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((s: { slug: string }) => s.slug)).toEqual(['a', 'b']);
    const rest = await org.admin.client.get(`${specsUrl(org.id)}?limit=2&page=${first.body.next.page}`);
    expect(rest.body.items.map((s: { slug: string }) => s.slug)).toEqual(['c']);
    expect(rest.body.next).toBeUndefined();

    const specUrl = `${specsUrl(org.id)}/a`;
    // Its first version exists once its creation is processed: a new source arriving before that
    // makes the creation's job obsolete (it is skipped), and 'a' would then have three versions.
    await processed(org.admin.client, specUrl);
    const made: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      await org.admin.client.put(specUrl, { source: { text: JSON.stringify(petstore(title)) } });
      made.unshift((await processed(org.admin.client, specUrl)).lastVersion);
    }
    // 'a' already had the version of its creation, so four in all.
    const page1 = await org.admin.client.get(`${specUrl}/versions?limit=2`);
    expect(page1.body.count).toBe(4);
    const page2 = await org.admin.client.get(`${specUrl}/versions?limit=2&page=${page1.body.next.page}`);
    expect(page2.body.next).toBeUndefined();
    const ids = [...page1.body.items, ...page2.body.items].map((v: { id: string }) => v.id);
    expect(ids.slice(0, 3)).toEqual(made);
    expect(new Set(ids).size).toBe(4);
    expect((await org.admin.client.get(`${specUrl}/versions?limit=0`)).body).toEqual({ items: [], count: 4 });
    expect((await org.admin.client.get(`${specUrl}/versions?page=garbage`)).status).toBe(400);
  });

  it('members read, the create role and above write; outsiders and guests get 404', async () => {
    const org = await h.org();
    const text = JSON.stringify(petstore());
    await org.admin.client.post(specsUrl(org.id), { slug: 'perm', source: { text } });
    await processed(org.admin.client, `${specsUrl(org.id)}/perm`);
    const specUrl = `${specsUrl(org.id)}/perm`;

    for (const [role, edit] of [
      ['admin', true],
      ['create', true],
      ['review', false],
      ['edit', false],
      ['comment', false],
      ['read', false],
    ] as const) {
      const member = await h.member(org.id, role);
      const got = await member.client.get(specUrl);
      expect(got.status).toBe(200);
      expect(got.body.permissions, role).toEqual({ view: true, edit });
      expect((await member.client.get(specsUrl(org.id))).body.items[0].permissions.edit).toBe(edit);
      expect((await member.client.get(`${specUrl}/versions/latest/content`)).status).toBe(200);
      const write = await member.client.put(specUrl, { source: { text } });
      expect(write.status, role).toBe(edit ? 200 : 403);
      const create = await member.client.post(specsUrl(org.id), { slug: `by-${role}`, source: { text } });
      expect(create.status, role).toBe(edit ? 201 : 403);
      if (!edit) expect((await member.client.delete(specUrl)).status).toBe(403);
    }

    const outsider = await h.user();
    const guest = await h.member(org.id, null);
    for (const client of [outsider.client, guest.client]) {
      expect((await client.get(specsUrl(org.id))).status).toBe(404);
      expect((await client.get(specUrl)).status).toBe(404);
      expect((await client.get(`${specUrl}/versions`)).status).toBe(404);
      expect((await client.put(specUrl, { source: { text } })).status).toBe(404);
      expect((await client.delete(specUrl)).status).toBe(404);
    }

    const readOnly = await h.member(org.id, 'admin', { scopes: ['openapi:read'] });
    expect((await readOnly.client.get(specUrl)).status).toBe(200);
    expect((await readOnly.client.put(specUrl, { source: { text } })).status).toBe(403);
    const otherScope = await h.member(org.id, 'admin', { scopes: ['organization:read'] });
    expect((await otherScope.client.get(specUrl)).status).toBe(403);
  });
});
