/**
 * The content of a change request through HTTP: batch edits (pages inserted, nested, updated, moved
 * and deleted atomically as one revision; bad placements and slug collisions; at most 50 changes);
 * reading pages by nested path, links and backlinks, files (stored, served to readers, at most
 * 5 MiB); reusable contents, read in the change request and, once merged, live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const newSpace = (): Promise<SpaceWorld> => h.space('Docs');

describe('batch edits', () => {
  it('inserts, nests, updates, moves and deletes pages atomically as one revision', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const res = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'See [intro](./intro.md).' } },
        { operation: 'insert_page', ref: 'intro', into: undefined, document: { markdown: '# Introduction\n\nHello.' } },
        { operation: 'insert_page', type: 'group', title: 'Reference', document: {} },
      ],
      '?compat=false',
    );
    expect(res.status).toBe(200);
    expect(res.body.changes.map((c: { object: string; ref?: string }) => [c.object, c.ref])).toEqual([
      ['created_page', 'guide'],
      ['created_page', 'intro'],
      ['created_page', undefined],
    ]);
    const [guideId, introId, groupId] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const firstRevision = res.body.changeRequest.revision;

    const intro = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${introId}`);
    expect(intro.body).toMatchObject({
      title: 'Introduction',
      slug: 'introduction',
      path: 'introduction',
      type: 'document',
    });
    const guide = await ctx.admin.client.get(
      `${ctx.base}/change-requests/${cr.id}/content/page/${guideId}?format=markdown`,
    );
    expect(guide.body.markdown).toBe(`See [intro](/pages/${introId}).\n`);

    const moved = await batch(ctx, cr.id, [
      { operation: 'update_page', page: introId, into: guideId, title: 'Intro', slug: 'start' },
      { operation: 'insert_page', into: groupId, title: 'API', document: { markdown: 'api' } },
      { operation: 'update_page', page: guideId, document: { markdown: '---\ndescription: The guide\n---\nNew body' } },
    ]);
    expect(moved.status).toBe(200);
    expect(moved.body.revision).not.toBe(firstRevision);
    const pages = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`);
    const summary = (list: Array<{ title: string; path: string; pages?: unknown[] }>): unknown =>
      list.map((p) => [p.title, p.path, summary((p.pages ?? []) as never)]);
    expect(summary(pages.body.pages)).toEqual([
      ['Guide', 'guide', [['Intro', 'guide/start', []]]],
      ['Reference', 'reference', [['API', 'api', []]]],
    ]);
    expect(pages.body.pages[0]).toMatchObject({ description: 'The guide', git: { path: 'guide/README.md' } });
    const revision = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content`);
    expect(revision.body).toMatchObject({ object: 'revision', type: 'edits', parents: [firstRevision] });
    const bare = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages?metadata=false`);
    expect(bare.body.pages[0].git).toBeUndefined();

    // A failing change leaves nothing applied.
    const failed = await batch(ctx, cr.id, [
      { operation: 'delete_page', page: guideId },
      { operation: 'update_page', page: 'missing', title: 'x' },
    ]);
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toContain('changes/1');
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}`)).body.revision).toBe(
      moved.body.revision,
    );

    const deleted = await batch(ctx, cr.id, [{ operation: 'delete_page', page: guideId }], '?compat=false');
    expect(deleted.body.changes).toEqual([{ object: 'deleted_page', page: guideId }]);
    const after = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`);
    expect(after.body.pages.map((p: { title: string }) => p.title)).toEqual(['Reference']);
    // The live content is untouched until the merge.
    expect((await ctx.admin.client.get(`${ctx.base}/content/pages`)).body.pages).toEqual([]);
  });

  it('refuses bad placements and slug collisions', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const made = await batch(ctx, cr.id, [{ operation: 'insert_page', title: 'A', document: {} }], '?compat=false');
    const a = made.body.changes[0].page.id;
    const cases: unknown[][] = [
      [{ operation: 'insert_page', title: 'A2', slug: 'a', document: {} }],
      [{ operation: 'insert_page', type: 'group', into: a, title: 'G', document: {} }],
      [{ operation: 'insert_page', type: 'link', title: 'L', document: {} }],
      [{ operation: 'update_page', page: a, into: a }],
      [{ operation: 'insert_page', into: 'nope', title: 'x', document: {} }],
      [{ operation: 'insert_page', title: 'x', document: {}, unknown: true }],
    ];
    for (const changes of cases) expect((await batch(ctx, cr.id, changes)).status).toBe(400);
    const link = await batch(ctx, cr.id, [
      { operation: 'insert_page', type: 'link', title: 'Site', target: { kind: 'url', url: 'https://example.com' } },
    ]);
    expect(link.status).toBe(200);
    const pages = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages[1]).toMatchObject({ type: 'link', href: 'https://example.com' });
  });

  it("gives a new page's path from its title while the writer has not chosen one; a published page keeps its path", async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const pageOf = async (id: string) =>
      (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${id}`)).body as {
        slug: string;
        path: string;
      };
    // As the app makes one: "Untitled", then the writer types its title (and again).
    const made = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', title: 'Untitled', document: { markdown: '' } },
        { operation: 'insert_page', title: 'Untitled', document: { markdown: '' } },
        { operation: 'insert_page', title: 'Chosen', slug: 'my-path', document: { markdown: '' } },
      ],
      '?compat=false',
    );
    expect(made.status).toBe(200);
    const [first, second, chosen] = made.body.changes.map((c: { page: string | { id: string } }) =>
      typeof c.page === 'string' ? c.page : c.page.id,
    );
    expect((await pageOf(second)).slug).toBe('untitled-2');
    const titled = await batch(ctx, cr.id, [
      { operation: 'update_page', page: first, title: 'Getting started' },
      { operation: 'update_page', page: second, title: 'Getting started!' },
      { operation: 'update_page', page: chosen, title: 'Renamed' },
    ]);
    expect(titled.status, JSON.stringify(titled.body)).toBe(200);
    expect(await pageOf(first)).toMatchObject({ slug: 'getting-started', path: 'getting-started' });
    expect((await pageOf(second)).slug).toBe('getting-started-2');
    expect((await pageOf(chosen)).slug).toBe('my-path');
    expect((await batch(ctx, cr.id, [{ operation: 'update_page', page: first, title: 'Install' }])).status).toBe(200);
    expect((await pageOf(first)).slug).toBe('install');

    // Once merged, the page is published: a new title in a new change request keeps its path.
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`, {})).status).toBe(200);
    const next = await newChangeRequest(ctx);
    expect((await batch(ctx, next.id, [{ operation: 'update_page', page: first, title: 'Setup' }])).status).toBe(200);
    const live = await ctx.admin.client.get(`${ctx.base}/change-requests/${next.id}/content/page/${first}`);
    expect(live.body).toMatchObject({ title: 'Setup', slug: 'install' });
  });

  it('takes at most 50 changes', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const changes = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: `P${i}`, document: {} }));
    expect((await batch(ctx, cr.id, changes(51))).status).toBe(400);
    expect((await batch(ctx, cr.id, changes(50))).status).toBe(200);
    const pages = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`);
    expect(pages.body.pages).toHaveLength(50);
    expect((await batch(ctx, cr.id, [])).status).toBe(400);
  });
});

describe('reading content', () => {
  it('finds pages by nested path, in either format', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    await batch(ctx, cr.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: 'a' } },
      { operation: 'insert_page', ref: 'b', into: undefined, title: 'Beta', document: { markdown: 'b' } },
    ]);
    const pages = (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`)).body.pages;
    await batch(ctx, cr.id, [
      { operation: 'insert_page', into: pages[0].id, title: 'Deep Page', document: { markdown: '**deep**' } },
    ]);
    const base = `${ctx.base}/change-requests/${cr.number}/content/path`;
    const deep = await ctx.admin.client.get(`${base}/alpha/deep-page`);
    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({ title: 'Deep Page', path: 'alpha/deep-page' });
    expect(deep.body.document.nodes[0].type).toBe('paragraph');
    const md = await ctx.admin.client.get(`${base}/alpha/deep-page?format=markdown`);
    expect(md.body.markdown).toBe('**deep**\n');
    expect(md.body.document).toBeUndefined();
    expect((await ctx.admin.client.get(`${base}/alpha%2Fdeep-page`)).status).toBe(200);
    expect((await ctx.admin.client.get(`${base}/alpha/nope`)).status).toBe(404);
    expect((await ctx.admin.client.get(`${base}/beta`)).body.title).toBe('Beta');
  });

  it('lists links with broken counts and backlinks of pages and files', async () => {
    const ctx = await newSpace();
    const seedCr = await newChangeRequest(ctx);
    const seeded = await batch(
      ctx,
      seedCr.id,
      [
        { operation: 'insert_page', title: 'Target', document: { markdown: '# Section\n\ntext' } },
        { operation: 'insert_page', title: 'Doomed', document: { markdown: 'x' } },
        {
          operation: 'insert_files',
          files: [{ ref: 'img', name: 'a.txt', contentType: 'text/plain', base64: 'aGk=' }],
        },
      ],
      '?compat=false',
    );
    const [target, doomed] = seeded.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const file = seeded.body.insertedFiles[0].id;
    const source = await batch(
      ctx,
      seedCr.id,
      [
        {
          operation: 'insert_page',
          title: 'Source',
          document: {
            markdown: `[t](/pages/${target}) [s](/pages/${target}#section) [bad anchor](/pages/${target}#nope) [d](/pages/${doomed}) [f](/files/${file}) [web](https://example.com) [gone](/pages/ghost)`,
          },
        },
      ],
      '?compat=false',
    );
    const sourceId = source.body.changes[0].page.id;
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${seedCr.id}/merge`)).status).toBe(200);

    const cr = await newChangeRequest(ctx);
    await batch(ctx, cr.id, [{ operation: 'delete_page', page: doomed }]);
    const links = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${sourceId}/links`);
    expect(links.status).toBe(200);
    expect(links.body.count).toBe(7);
    expect(links.body.stats).toEqual({ total: 7, broken: { total: 3, changeRequest: 1 } });
    expect(links.body.items.map((l: { status: string }) => l.status)).toEqual([
      'ok',
      'ok',
      'broken',
      'broken',
      'ok',
      'ok',
      'broken',
    ]);
    const paged = await ctx.admin.client.get(
      `${ctx.base}/change-requests/${cr.id}/content/page/${sourceId}/links?limit=5`,
    );
    expect(paged.body.items).toHaveLength(5);
    const rest = await ctx.admin.client.get(
      `${ctx.base}/change-requests/${cr.id}/content/page/${sourceId}/links?limit=5&page=${paged.body.next.page}`,
    );
    expect(rest.body.items).toHaveLength(2);

    const back = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${target}/backlinks`);
    expect(back.body.items.map((p: { id: string }) => p.id)).toEqual([sourceId]);
    const fileBack = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/files/${file}/backlinks`);
    expect(fileBack.body).toMatchObject({ count: 1, items: [{ id: sourceId, title: 'Source' }] });
    expect(
      (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${doomed}/backlinks`)).status,
    ).toBe(404);
  });

  it('stores files with their size, type and image dimensions, and serves the bytes to readers', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    // A 2×3 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGP4z8DwHwyBNAMDAFXTBfuqUCJSAAAAAElFTkSuQmCC',
      'base64',
    );
    const res = await batch(
      ctx,
      cr.id,
      [
        {
          operation: 'insert_files',
          files: [{ name: 'pixel.png', contentType: 'image/png', base64: png.toString('base64') }],
        },
      ],
      '?compat=false',
    );
    expect(res.status).toBe(200);
    const file = res.body.insertedFiles[0];
    expect(file).toMatchObject({
      name: 'pixel.png',
      contentType: 'image/png',
      size: png.length,
      dimensions: { width: 2, height: 3 },
    });
    const listed = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/files`);
    expect(listed.body).toMatchObject({
      count: 1,
      items: [{ id: file.id, git: { path: '.gitbook/assets/pixel.png' } }],
    });
    const one = await ctx.admin.client.get(
      `${ctx.base}/change-requests/${cr.id}/content/files/${file.id}?metadata=false`,
    );
    expect(one.body.git).toBeUndefined();
    const url = new URL(file.downloadURL);
    const reader = await h.member(ctx.orgId, 'read');
    const download = await reader.client.app.inject({
      method: 'GET',
      url: url.pathname,
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(png)).toBe(true);
    const outsider = await h.user();
    expect((await outsider.client.get(url.pathname)).status).toBe(404);
    expect((await h.anonymous.get(url.pathname)).status).toBe(401);
  });

  it('limits files to 5 MiB', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const file = (size: number) => ({
      operation: 'insert_files',
      files: [
        { name: 'big.bin', contentType: 'application/octet-stream', base64: Buffer.alloc(size, 1).toString('base64') },
      ],
    });
    const limit = 5 * 1024 * 1024;
    expect((await batch(ctx, cr.id, [file(limit + 1)])).status).toBe(413);
    expect((await batch(ctx, cr.id, [file(limit)])).status).toBe(200);
  });
});

describe('reusable contents', () => {
  it('are inserted, updated and deleted by batch edits, read in the change request and, once merged, live', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Shared' })).body.id;
    const cr = (await c.post(`/v1/spaces/${space}/change-requests`, { subject: 'snippets' })).body.id;
    const base = `/v1/spaces/${space}/change-requests/${cr}/content`;
    const inserted = await c.request('POST', `${base}?compat=false`, {
      changes: [
        {
          operation: 'insert_reusable_content',
          title: 'Support',
          ref: 'support',
          document: { markdown: 'Write to **us**.' },
        },
        { operation: 'insert_reusable_content', title: 'x'.repeat(100) },
      ],
    });
    expect(inserted.status).toBe(200);
    const created = inserted.body.changes.filter((x: { object: string }) => x.object === 'created_reusable_content');
    expect(created).toHaveLength(2);
    const [support, long] = created.map((x: { reusableContent: string }) => x.reusableContent);
    const got = await c.get(`${base}/reusable-contents/${support}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: support, title: 'Support', document: expect.any(String) });
    expect((await c.get(base)).body.reusableContents.map((r: { id: string }) => r.id).sort()).toEqual(
      [support, long].sort(),
    );

    expect(
      (
        await c.post(base, {
          changes: [{ operation: 'update_reusable_content', reusableContent: support, title: 'Help' }],
        })
      ).status,
    ).toBe(200);
    expect(
      (await c.post(base, { changes: [{ operation: 'delete_reusable_content', reusableContent: long }] })).status,
    ).toBe(200);
    expect((await c.get(`${base}/reusable-contents/${long}`)).status).toBe(404);
    expect(
      (await c.post(base, { changes: [{ operation: 'update_reusable_content', reusableContent: 'nope', title: 'x' }] }))
        .status,
    ).toBe(400);
    expect(
      (await c.post(base, { changes: [{ operation: 'insert_reusable_content', title: 'x'.repeat(101) }] })).status,
    ).toBe(400);
    expect((await c.post(base, { changes: [{ operation: 'insert_reusable_content', title: '' }] })).status).toBe(400);

    expect((await c.post(`/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    const live = await c.get(`/v1/spaces/${space}/content/reusable-contents/${support}`);
    expect(live.status).toBe(200);
    expect(live.body.title).toBe('Help');
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(`/v1/spaces/${space}/content/reusable-contents/${support}`)).status).toBe(200);
    expect((await (await h.user()).client.get(`/v1/spaces/${space}/content/reusable-contents/${support}`)).status).toBe(
      404,
    );
  });
});
