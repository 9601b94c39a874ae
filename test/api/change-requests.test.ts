/**
 * Change requests through HTTP: created (201, Location, numbered), read by id or number, listed
 * (by status, by creator, paged) and updated; who may read, write and merge; merging pages changed
 * on one side, a 409 naming the pages changed on both, unchanged pages shared between revisions;
 * requested reviewers; a change request from a never-edited space. Batch edits, reading content
 * and reusable contents: change-requests-content.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

type Ctx = SpaceWorld;

const newSpace = (): Promise<Ctx> => h.space('Docs');

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

  it('pages the list, newest first, and filters by creator', async () => {
    const ctx = await newSpace();
    const editor = await h.member(ctx.orgId, 'edit');
    for (const subject of ['a', 'b', 'c']) await newChangeRequest(ctx, subject);
    await editor.client.post(`${ctx.base}/change-requests`, { subject: 'mine' });
    const first = await ctx.admin.client.get(`${ctx.base}/change-requests?limit=3&orderBy=createdAt`);
    expect(first.body.count).toBe(4);
    const second = await ctx.admin.client.get(
      `${ctx.base}/change-requests?limit=3&orderBy=createdAt&page=${first.body.next.page}`,
    );
    const numbers = [...first.body.items, ...second.body.items].map((c: { number: number }) => c.number);
    expect(numbers).toEqual([4, 3, 2, 1]);
    expect(second.body.next).toBeUndefined();
    const mine = await ctx.admin.client.get(`${ctx.base}/change-requests?creator=${editor.user.id}`);
    expect(mine.body.items.map((c: { subject: string }) => c.subject)).toEqual(['mine']);
    const none = await ctx.admin.client.get(`${ctx.base}/change-requests/1/content/reusable-contents/nope`);
    expect(none.status).toBe(404);
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

describe('merge', () => {
  async function seed(ctx: Ctx) {
    const cr = await newChangeRequest(ctx, 'Seed');
    const made = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', title: 'One', document: { markdown: 'one' } },
        { operation: 'insert_page', title: 'Two', document: { markdown: 'two' } },
        { operation: 'insert_page', title: 'Three', document: { markdown: 'three' } },
      ],
      '?compat=false',
    );
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(200);
    return made.body.changes.map((c: { page: { id: string } }) => c.page.id) as string[];
  }

  it('merges pages changed on one side only, in both directions, into a new live revision', async () => {
    const ctx = await newSpace();
    const [one, two, three] = await seed(ctx);
    const a = await newChangeRequest(ctx, 'A');
    const b = await newChangeRequest(ctx, 'B');
    await batch(ctx, a.id, [
      { operation: 'update_page', page: one!, document: { markdown: 'one by A' } },
      { operation: 'insert_page', title: 'Four', document: { markdown: 'four' } },
    ]);
    await batch(ctx, b.id, [
      { operation: 'update_page', page: two!, title: 'Two by B' },
      { operation: 'delete_page', page: three! },
    ]);
    const mergedA = await ctx.admin.client.post(`${ctx.base}/change-requests/${a.id}/merge`);
    expect(mergedA.body.result).toBe('merge');
    const outdated = await ctx.admin.client.get(`${ctx.base}/change-requests/${b.id}`);
    expect(outdated.body.outdated).toBe(true);
    const mergedB = await ctx.admin.client.post(`${ctx.base}/change-requests/${b.id}/merge`);
    expect(mergedB.status).toBe(200);
    const space = await ctx.admin.client.get(ctx.base);
    expect(space.body.revision).toBe(mergedB.body.revision);
    const live = await ctx.admin.client.get(`${ctx.base}/content`);
    expect(live.body).toMatchObject({ type: 'merge', mergedFrom: { id: b.id, status: 'merged' } });
    expect(live.body.parents).toEqual([mergedA.body.revision, expect.any(String)]);
    expect(live.body.pages.map((p: { title: string }) => p.title)).toEqual(['One', 'Two by B', 'Four']);
    const page = await ctx.admin.client.get(`${ctx.base}/content/page/${one}?format=markdown`);
    expect(page.body.markdown).toBe('one by A\n');
    const merged = await ctx.admin.client.get(`${ctx.base}/change-requests/${b.id}`);
    expect(merged.body).toMatchObject({
      status: 'merged',
      mergedBy: { id: ctx.admin.user.id },
      revisionMerged: mergedB.body.revision,
    });
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${b.id}/merge`)).status).toBe(409);
    expect((await batch(ctx, b.id, [{ operation: 'delete_page', page: one! }])).status).toBe(409);
  });

  it('refuses with 409, naming the pages, when the same page changed on both sides', async () => {
    const ctx = await newSpace();
    const [one, two] = await seed(ctx);
    const a = await newChangeRequest(ctx, 'A');
    const b = await newChangeRequest(ctx, 'B');
    await batch(ctx, a.id, [
      { operation: 'update_page', page: one!, document: { markdown: 'A' } },
      { operation: 'update_page', page: two!, title: 'Two A' },
    ]);
    await batch(ctx, b.id, [
      { operation: 'update_page', page: one!, document: { markdown: 'B' } },
      { operation: 'delete_page', page: two! },
    ]);
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${a.id}/merge`)).status).toBe(200);
    const before = (await ctx.admin.client.get(ctx.base)).body.revision;
    const res = await ctx.admin.client.post(`${ctx.base}/change-requests/${b.id}/merge`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(one);
    expect(res.body.error.message).toContain(two);
    expect(res.body.error.message).toContain('"One"');
    expect((await ctx.admin.client.get(ctx.base)).body.revision).toBe(before);
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/${b.id}`)).body.status).toBe('open');
  });

  it('shares unchanged pages between revisions (an edit writes the page and its ancestors only)', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const made = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', ref: 'p', title: 'Parent', document: { markdown: 'p' } },
        ...Array.from({ length: 10 }, (_, i) => ({ operation: 'insert_page', title: `Top ${i}`, document: {} })),
      ],
      '?compat=false',
    );
    const parent = made.body.changes[0].page.id;
    await batch(ctx, cr.id, [{ operation: 'insert_page', into: parent, title: 'Child', document: { markdown: 'c' } }]);
    const count = async () =>
      Number(
        (
          await h.db
            .selectFrom('page_versions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const child = (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/path/parent/child`)).body
      .id;
    await batch(ctx, cr.id, [{ operation: 'update_page', page: child, document: { markdown: 'changed' } }]);
    expect((await count()) - before).toBe(2);
  });
});

describe('requested reviewers', () => {
  it('adds members who can read, renames with subject, lists and removes', async () => {
    const ctx = await newSpace();
    const cr = await newChangeRequest(ctx);
    const reader = await h.member(ctx.orgId, 'read');
    const other = await h.member(ctx.orgId, 'review');
    const url = `${ctx.base}/change-requests/${cr.id}/requested-reviewers`;
    const res = await ctx.admin.client.post(url, { users: [reader.user.id, other.user.id], subject: 'Please review' });
    expect(res.status).toBe(200);
    expect(res.body.users).toHaveLength(2);
    expect(res.body.users[0]).toMatchObject({
      object: 'change-request-requested-reviewer',
      kind: 'user',
      requestedBy: { id: ctx.admin.user.id },
    });
    expect((await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}`)).body.subject).toBe('Please review');
    const listed = await reader.client.get(`${url}?limit=1`);
    expect(listed.body.count).toBe(2);
    expect(listed.body.items).toHaveLength(1);
    const filtered = await ctx.admin.client.get(`${ctx.base}/change-requests?requestedReviewer=${reader.user.id}`);
    expect(filtered.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);

    const stranger = await h.user();
    const bad = await ctx.admin.client.post(url, { users: [stranger.user.id] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain(stranger.user.id);
    expect((await reader.client.post(url, { users: [other.user.id] })).status).toBe(403);

    expect((await ctx.admin.client.delete(`${url}/${reader.user.id}`)).status).toBe(204);
    expect((await ctx.admin.client.delete(`${url}/${reader.user.id}`)).status).toBe(404);
    expect((await ctx.admin.client.get(url)).body.count).toBe(1);
  });
});

describe('a change request from a never-edited space', () => {
  it('stays readable after it is merged and the live revision moves on', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Fresh' })).body.id;
    const first = (await c.post(`/v1/spaces/${space}/change-requests`, { subject: 'empty' })).body;
    expect((await c.post(`/v1/spaces/${space}/change-requests/${first.id}/merge`)).status).toBe(200);
    const content = await c.get(`/v1/spaces/${space}/change-requests/${first.id}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages).toEqual([]);
    expect((await c.get(`/v1/spaces/${space}/content`)).status).toBe(200);
  });
});
