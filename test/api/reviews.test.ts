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
  author: TestUser;
  spaceId: string;
  base: string;
  cr: string;
}

/** A space with a change request written by an editor (so the organization admin may review it). */
async function newChangeRequest(): Promise<Ctx> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Docs' });
  const base = `/v1/spaces/${space.body.id}`;
  const author = await h.member(org.id, 'edit');
  const cr = await author.client.post(`${base}/change-requests`, { subject: 'Edit' });
  expect(cr.status).toBe(201);
  const ctx = { orgId: org.id, admin: org.admin, author, spaceId: space.body.id, base, cr: cr.body.id };
  await edit(ctx, author, 'First');
  return ctx;
}

async function edit(ctx: Ctx, who: TestUser, title: string) {
  const res = await who.client.post(`${ctx.base}/change-requests/${ctx.cr}/content`, {
    changes: [{ operation: 'insert_page', title, document: { markdown: `${title}.` } }],
  });
  expect(res.status).toBe(200);
  return res.body;
}

const reviews = (ctx: Ctx) => `${ctx.base}/change-requests/${ctx.cr}/reviews`;

describe('change request reviews', () => {
  it('submits (201, Location) on the current revision, lists, gets one; a later edit makes it outdated', async () => {
    const ctx = await newChangeRequest();
    const reviewer = await h.member(ctx.orgId, 'review');
    const cr = await ctx.admin.client.get(`${ctx.base}/change-requests/${ctx.cr}`);
    const res = await reviewer.client.post(reviews(ctx), { status: 'approved' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${reviews(ctx)}/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'change-request-review',
      status: 'approved',
      revision: cr.body.revision,
      outdated: false,
      reviewer: { id: reviewer.user.id },
    });
    expect(res.body.requestedBy).toBeUndefined();
    expect(res.body.comment).toBeUndefined();
    const one = await ctx.admin.client.get(`${reviews(ctx)}/${res.body.id}`);
    expect(one.body).toEqual(res.body);
    expect((await ctx.admin.client.get(`${reviews(ctx)}/nope`)).status).toBe(404);

    await edit(ctx, ctx.author, 'Second');
    const after = await ctx.admin.client.get(`${reviews(ctx)}/${res.body.id}`);
    expect(after.body.outdated).toBe(true);
    const second = await reviewer.client.post(reviews(ctx), { status: 'changes-requested' });
    const list = await ctx.admin.client.get(reviews(ctx));
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((r: { id: string; outdated: boolean }) => [r.id, r.outdated])).toEqual([
      [res.body.id, true],
      [second.body.id, false],
    ]);
    const current = await ctx.admin.client.get(`${reviews(ctx)}?outdated=false`);
    expect(current.body.items.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    const old = await ctx.admin.client.get(`${reviews(ctx)}?outdated=true`);
    expect(old.body.items.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
    const paged = await ctx.admin.client.get(`${reviews(ctx)}?limit=1`);
    expect(paged.body.items).toHaveLength(1);
    const next = await ctx.admin.client.get(`${reviews(ctx)}?limit=1&page=${paged.body.next.page}`);
    expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    expect(next.body.next).toBeUndefined();
  });

  it('carries an optional comment (a comment of the change request tied to the review) and who requested it', async () => {
    const ctx = await newChangeRequest();
    const reviewer = await h.member(ctx.orgId, 'read');
    const requested = await ctx.author.client.post(`${ctx.base}/change-requests/${ctx.cr}/requested-reviewers`, {
      users: [reviewer.user.id],
    });
    expect(requested.status).toBe(200);
    // A requested reviewer reviews whatever their role (here: read).
    const res = await reviewer.client.post(reviews(ctx), {
      status: 'changes-requested',
      comment: { markdown: 'Please fix the *intro*' },
    });
    expect(res.status).toBe(201);
    expect(res.body.requestedBy.id).toBe(ctx.author.user.id);
    expect(res.body.comment).toMatchObject({
      object: 'comment',
      target: { changeRequest: ctx.cr, review: res.body.id },
      postedBy: { id: reviewer.user.id },
    });
    const markdown = await ctx.admin.client.get(`${reviews(ctx)}/${res.body.id}?format=markdown`);
    expect(markdown.body.comment.body).toEqual({ markdown: 'Please fix the *intro*\n' });
    const comments = await ctx.admin.client.get(`${ctx.base}/change-requests/${ctx.cr}/comments`);
    expect(comments.body.items.map((c: { id: string }) => c.id)).toEqual([res.body.comment.id]);
    // Asked again after reviewing (by someone else, on the same revision): the review is superseded.
    expect((await ctx.admin.client.get(`${reviews(ctx)}/${res.body.id}`)).body.outdated).toBe(false);
    const again = await ctx.admin.client.post(`${ctx.base}/change-requests/${ctx.cr}/requested-reviewers`, {
      users: [reviewer.user.id],
    });
    expect(again.body.users).toMatchObject([{ requestedBy: { id: ctx.admin.user.id } }]);
    expect((await ctx.admin.client.get(`${reviews(ctx)}/${res.body.id}`)).body.outdated).toBe(true);
    const answered = await reviewer.client.post(reviews(ctx), { status: 'approved' });
    expect(answered.body).toMatchObject({ outdated: false, requestedBy: { id: ctx.admin.user.id } });
  });

  it('permissions: outsider 404, reader and editor 403, the author cannot review; closed change requests 409', async () => {
    const ctx = await newChangeRequest();
    const outsider = await h.user();
    const reader = await h.member(ctx.orgId, 'read');
    const editor = await h.member(ctx.orgId, 'edit');
    const reviewer = await h.member(ctx.orgId, 'review');
    expect((await outsider.client.post(reviews(ctx), { status: 'approved' })).status).toBe(404);
    expect((await outsider.client.get(reviews(ctx))).status).toBe(404);
    expect((await outsider.client.get(`${ctx.base}/change-requests/${ctx.cr}/contributors`)).status).toBe(404);
    expect((await reader.client.post(reviews(ctx), { status: 'approved' })).status).toBe(403);
    expect((await editor.client.post(reviews(ctx), { status: 'approved' })).status).toBe(403);
    expect((await ctx.author.client.post(reviews(ctx), { status: 'approved' })).status).toBe(403);
    expect((await reader.client.get(reviews(ctx))).status).toBe(200);
    const made = await reviewer.client.post(reviews(ctx), { status: 'approved' });
    expect((await outsider.client.get(`${reviews(ctx)}/${made.body.id}`)).status).toBe(404);

    expect((await reviewer.client.post(reviews(ctx), { status: 'rejected' })).status).toBe(400);
    expect((await reviewer.client.post(reviews(ctx), {})).status).toBe(400);
    expect((await reviewer.client.post(reviews(ctx), { status: 'approved', extra: 1 })).status).toBe(400);
    expect((await reviewer.client.post(reviews(ctx), { status: 'approved', comment: { markdown: '' } })).status).toBe(
      400,
    );
    expect((await reviewer.client.post(`${ctx.base}/change-requests/999/reviews`, { status: 'approved' })).status).toBe(
      404,
    );
    expect((await ctx.admin.client.get(`${reviews(ctx)}?outdated=maybe`)).status).toBe(400);

    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${ctx.cr}/merge`)).status).toBe(200);
    const closed = await reviewer.client.post(reviews(ctx), { status: 'approved' });
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toMatch(/merged/);
  });

  it('removes a requested reviewer (204, then 404); readers cannot (403)', async () => {
    const ctx = await newChangeRequest();
    const reviewer = await h.member(ctx.orgId, 'review');
    const reader = await h.member(ctx.orgId, 'read');
    const path = `${ctx.base}/change-requests/${ctx.cr}/requested-reviewers`;
    await ctx.author.client.post(path, { users: [reviewer.user.id] });
    expect((await reader.client.delete(`${path}/${reviewer.user.id}`)).status).toBe(403);
    expect((await ctx.author.client.delete(`${path}/${reviewer.user.id}`)).status).toBe(204);
    expect((await ctx.author.client.get(path)).body.count).toBe(0);
    expect((await ctx.author.client.delete(`${path}/${reviewer.user.id}`)).status).toBe(404);
  });

  it('lists contributors: who edited it (from its revisions) and who commented', async () => {
    const ctx = await newChangeRequest();
    const editor = await h.member(ctx.orgId, 'edit');
    const commenter = await h.member(ctx.orgId, 'comment');
    await edit(ctx, editor, 'Second');
    await edit(ctx, ctx.author, 'Third');
    await commenter.client.post(`${ctx.base}/change-requests/${ctx.cr}/comments`, { body: { markdown: 'Nice' } });
    const res = await ctx.admin.client.get(`${ctx.base}/change-requests/${ctx.cr}/contributors`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const entries = res.body.items.map((c: { user: { id: string }; count: number; actionType: string }) => [
      c.user.id,
      c.actionType,
      c.count,
    ]);
    expect(entries).toEqual(
      expect.arrayContaining([
        [ctx.author.user.id, 'edit', 2],
        [editor.user.id, 'edit', 1],
        [commenter.user.id, 'comment', 1],
      ]),
    );
    // Edits merged into the live content before the change request began are not its contributions.
    const other = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'Empty' });
    const none = await ctx.admin.client.get(`${ctx.base}/change-requests/${other.body.id}/contributors`);
    expect(none.body).toEqual({ items: [], count: 0 });
  });

  it('records change_request.review_submitted', async () => {
    const ctx = await newChangeRequest();
    const reviewer = await h.member(ctx.orgId, 'review');
    const made = await reviewer.client.post(reviews(ctx), { status: 'approved' });
    const events = await ctx.admin.client.get(`/v1/orgs/${ctx.orgId}/audit-events`);
    const submitted = events.body.items.filter(
      (e: { action: string }) => e.action === 'change_request.review_submitted',
    );
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      actor: { id: reviewer.user.id },
      target: { type: 'change-request-review', id: made.body.id },
    });
  });
});

describe('merge rules', () => {
  const merge = (ctx: Ctx) => ctx.admin.client.post(`${ctx.base}/change-requests/${ctx.cr}/merge`);

  it('are off by default', async () => {
    const ctx = await newChangeRequest();
    expect((await merge(ctx)).status).toBe(200);
  });

  it('need N approvals of the current revision and no outstanding changes request (organization setting)', async () => {
    const ctx = await newChangeRequest();
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review', minimum: 2 }] };
    const patched = await ctx.admin.client.patch(`/v1/orgs/${ctx.orgId}`, { mergeRules: rules });
    expect(patched.status).toBe(200);
    expect(patched.body.mergeRules).toEqual(rules);
    const [a, b, c] = [
      await h.member(ctx.orgId, 'review'),
      await h.member(ctx.orgId, 'review'),
      await h.member(ctx.orgId, 'review'),
    ];
    for (const minimum of [0, 101, 1.5]) {
      const bad = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review', minimum }] };
      expect((await ctx.admin.client.patch(`/v1/orgs/${ctx.orgId}`, { mergeRules: bad })).status).toBe(400);
    }
    const refused = await merge(ctx);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/needs 2 approvals of its current revision and has 0/);
    await a.client.post(reviews(ctx), { status: 'approved' });
    expect((await merge(ctx)).body.error.message).toMatch(/has 1/);
    await b.client.post(reviews(ctx), { status: 'approved' });
    await c.client.post(reviews(ctx), { status: 'changes-requested' });
    const blocked = await merge(ctx);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toContain(`changes are requested by ${c.user.id}`);
    await c.client.post(reviews(ctx), { status: 'approved' });
    // An edit makes the approvals outdated: they count no more.
    await edit(ctx, ctx.author, 'Late');
    expect((await merge(ctx)).body.error.message).toMatch(/has 0/);
    await a.client.post(reviews(ctx), { status: 'approved' });
    await b.client.post(reviews(ctx), { status: 'approved' });
    expect((await merge(ctx)).status).toBe(200);
  });

  it('a space setting overrides the organization; inherit follows it; unsupported rules refuse', async () => {
    const ctx = await newChangeRequest();
    const one = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] };
    await ctx.admin.client.patch(`/v1/orgs/${ctx.orgId}`, { mergeRules: one });
    expect((await ctx.admin.client.patch(ctx.base, { mergeRules: { type: 'inherit' } })).status).toBe(200);
    expect((await merge(ctx)).body.error.message).toMatch(/needs 1 approval of/);
    await ctx.admin.client.patch(ctx.base, {
      mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] },
    });
    expect((await merge(ctx)).body.error.message).toMatch(/merge rule custom is not supported/);
    await ctx.admin.client.patch(ctx.base, { mergeRules: { type: 'none' } });
    expect((await merge(ctx)).status).toBe(200);
  });
});
