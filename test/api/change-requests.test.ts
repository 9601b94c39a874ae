import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

interface Ctx {
  orgId: string;
  admin: TestUser;
  spaceId: string;
  base: string;
}

async function newSpace(): Promise<Ctx> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Docs' });
  expect(space.status).toBe(201);
  return { orgId: org.id, admin: org.admin, spaceId: space.body.id, base: `/v1/spaces/${space.body.id}` };
}

async function newChangeRequest(ctx: Ctx, subject = 'Edit') {
  const res = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

async function batch(ctx: Ctx, cr: string, changes: unknown[], query = '') {
  return ctx.admin.client.post(`${ctx.base}/change-requests/${cr}/content${query}`, { changes });
}

describe('change requests', () => {
  it('creates (201, Location, numbered), reads by id or number, lists by status, updates', async () => {
    const ctx = await newSpace();
    const res = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'First' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${ctx.base}/change-requests/${res.body.id}`);
    const space = await ctx.admin.client.get(ctx.base);
    expect(res.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'First',
      space: ctx.spaceId,
      revision: space.body.revision,
      revisionInitial: space.body.revision,
      outdated: false,
      createdBy: { id: ctx.admin.user.id },
    });
    const second = await newChangeRequest(ctx, 'Second');
    expect(second.number).toBe(2);
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/1`)).body.id).toBe(res.body.id);
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/${second.id}`)).body.number).toBe(2);
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/99`)).status).toBe(404);

    const patched = await ctx.admin.client.patch(`${ctx.base}/change-requests/2`, {
      status: 'draft',
      subject: 'Renamed',
    });
    expect(patched.body).toMatchObject({ status: 'draft', subject: 'Renamed' });
    const open = await ctx.admin.client.get(`${ctx.base}/change-requests`);
    expect(open.body.items.map((c: { number: number }) => c.number)).toEqual([1]);
    const drafts = await ctx.admin.client.get(`${ctx.base}/change-requests?status=draft`);
    expect(drafts.body.items.map((c: { number: number }) => c.number)).toEqual([2]);
    const counts = await ctx.admin.client.get(ctx.base);
    expect(counts.body).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
    expect((await ctx.admin.client.patch(`${ctx.base}/change-requests/2`, { status: 'merged' })).status).toBe(400);
    expect((await ctx.admin.client.patch(`${ctx.base}/change-requests/2`, { subject: 'x'.repeat(101) })).status).toBe(
      400,
    );
  });

  it('outsiders get 404, readers 403 on writes, editors cannot merge', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const outsider = await h.user();
    expect((await outsider.client.get(`${ctx.base}/change-requests/${cr.id}`)).status).toBe(404);
    expect((await outsider.client.get(`${ctx.base}/change-requests/${cr.id}/content`)).status).toBe(404);
    expect((await outsider.client.post(`${ctx.base}/change-requests`, { subject: 'x' })).status).toBe(404);
    const reader = await h.member(ctx.orgId, 'read');
    expect((await reader.client.get(`${ctx.base}/change-requests/${cr.id}`)).status).toBe(200);
    expect((await reader.client.get(`${ctx.base}/change-requests/${cr.id}/content/pages`)).status).toBe(200);
    expect((await reader.client.post(`${ctx.base}/change-requests`, { subject: 'x' })).status).toBe(403);
    const edit = { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }] };
    expect((await reader.client.post(`${ctx.base}/change-requests/${cr.id}/content`, edit)).status).toBe(403);
    const editor = await h.member(ctx.orgId, 'edit');
    expect((await editor.client.post(`${ctx.base}/change-requests/${cr.id}/content`, edit)).status).toBe(200);
    expect((await editor.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(403);
    const reviewer = await h.member(ctx.orgId, 'review');
    expect((await reviewer.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const scoped = await h.member(ctx.orgId, 'admin', { scopes: ['space:write'] });
    const other = await newChangeRequest(ctx);
    expect((await scoped.client.post(`${ctx.base}/change-requests/${other.id}/merge`)).status).toBe(403);
  });
});

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
