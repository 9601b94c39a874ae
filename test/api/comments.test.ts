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
  pageId: string;
}

/** A space with one live page (merged through a change request), and its change request. */
async function newSpace(): Promise<Ctx & { crId: string }> {
  const org = await h.org();
  const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Docs' });
  expect(space.status).toBe(201);
  const base = `/v1/spaces/${space.body.id}`;
  const cr = await org.admin.client.post(`${base}/change-requests`, { subject: 'Start' });
  const edit = await org.admin.client.post(`${base}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.' } }],
  });
  expect(edit.status).toBe(200);
  const pageId = edit.body.changes[0].page.id as string;
  expect((await org.admin.client.post(`${base}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  const open = await org.admin.client.post(`${base}/change-requests`, { subject: 'Next' });
  return { orgId: org.id, admin: org.admin, spaceId: space.body.id, base, pageId, crId: open.body.id };
}

const text = (markdown: string) => ({ body: { markdown } });

describe.each([
  ['space', (c: Ctx & { crId: string }) => c.base],
  ['change request', (c: Ctx & { crId: string }) => `${c.base}/change-requests/${c.crId}`],
])('comments in a %s', (_kind, threadOf) => {
  it('posts (201, Location), reads, edits, resolves, replies, reacts, deletes', async () => {
    const ctx = await newSpace();
    const thread = threadOf(ctx);
    const posted = await ctx.admin.client.post(`${thread}/comments`, { ...text('Looks **good**'), page: ctx.pageId });
    expect(posted.status).toBe(201);
    expect(posted.headers.location).toBe(`http://bindery.test${thread}/comments/${posted.body.id}`);
    expect(posted.body).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      postedBy: { id: ctx.admin.user.id },
      target: { space: ctx.spaceId, page: { id: ctx.pageId } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.body.body.document.nodes[0].type).toBe('paragraph');
    const id = posted.body.id;
    const asMarkdown = await ctx.admin.client.get(`${thread}/comments/${id}?format=markdown`);
    expect(asMarkdown.body.body).toEqual({ markdown: 'Looks **good**\n' });

    const edited = await ctx.admin.client.put(`${thread}/comments/${id}`, {
      ...text('Looks great'),
      addedReactions: ['👍', '🎉'],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.editedAt).toBeDefined();
    expect(edited.body.reactions.map((r: { emoji: string }) => r.emoji).sort()).toEqual(['🎉', '👍'].sort());
    const unreacted = await ctx.admin.client.put(`${thread}/comments/${id}`, { removedReactions: ['🎉'] });
    expect(unreacted.body.reactions).toMatchObject([
      { emoji: '👍', count: 1, users: [{ user: { id: ctx.admin.user.id } }] },
    ]);

    const replied = await ctx.admin.client.post(`${thread}/comments/${id}/replies`, text('Agreed'));
    expect(replied.status).toBe(201);
    expect(replied.headers.location).toBe(`http://bindery.test${thread}/comments/${id}/replies/${replied.body.id}`);
    expect(replied.body).toMatchObject({ object: 'comment-reply', postedBy: { id: ctx.admin.user.id } });
    const replyUrl = `${thread}/comments/${id}/replies/${replied.body.id}`;
    expect((await ctx.admin.client.put(replyUrl, text('Agreed!'))).body.editedAt).toBeDefined();
    expect((await ctx.admin.client.get(`${replyUrl}?format=markdown`)).body.body).toEqual({ markdown: 'Agreed!\n' });
    const withReplies = await ctx.admin.client.get(`${thread}/comments/${id}`);
    expect(withReplies.body).toMatchObject({ replies: 1, repliers: [{ count: 1, user: { id: ctx.admin.user.id } }] });

    const resolved = await ctx.admin.client.put(`${thread}/comments/${id}`, { resolved: true });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: ctx.admin.user.id } });
    const reopened = await ctx.admin.client.put(`${thread}/comments/${id}`, { resolved: false });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();

    expect((await ctx.admin.client.delete(replyUrl)).status).toBe(204);
    expect((await ctx.admin.client.get(replyUrl)).status).toBe(404);
    expect((await ctx.admin.client.delete(`${thread}/comments/${id}`)).status).toBe(204);
    expect((await ctx.admin.client.get(`${thread}/comments/${id}`)).status).toBe(404);
    expect((await ctx.admin.client.delete(`${thread}/comments/${id}`)).status).toBe(404);
  });

  it('filters by status, page and author, orders and pages; lists commenters', async () => {
    const ctx = await newSpace();
    const thread = threadOf(ctx);
    const commenter = await h.member(ctx.orgId, 'comment');
    const ids: string[] = [];
    for (const [i, who] of [ctx.admin, commenter, ctx.admin].entries()) {
      const res = await who.client.post(`${thread}/comments`, {
        ...text(`Comment ${i}`),
        ...(i === 1 ? { page: ctx.pageId } : {}),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await ctx.admin.client.put(`${thread}/comments/${ids[0]}`, { resolved: true });
    const all = await ctx.admin.client.get(`${thread}/comments`);
    expect(all.body.count).toBe(3);
    expect(all.body.items.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    const asc = await ctx.admin.client.get(`${thread}/comments?order=asc&limit=2`);
    expect(asc.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 2));
    const rest = await ctx.admin.client.get(`${thread}/comments?order=asc&limit=2&page=${asc.body.next.page}`);
    expect(rest.body.items.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
    expect(rest.body.next).toBeUndefined();
    const open = await ctx.admin.client.get(`${thread}/comments?status=open`);
    expect(open.body.items.map((c: { id: string }) => c.id).sort()).toEqual([ids[1], ids[2]].sort());
    const resolved = await ctx.admin.client.get(`${thread}/comments?status=resolved`);
    expect(resolved.body.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    const onPage = await ctx.admin.client.get(`${thread}/comments?targetPage=${ctx.pageId}`);
    expect(onPage.body.items.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    const byAuthor = await ctx.admin.client.get(`${thread}/comments?authors=${commenter.user.id}`);
    expect(byAuthor.body.items.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    const counted = await ctx.admin.client.get(`${thread}/comments?limit=0`);
    expect(counted.body).toEqual({ items: [], count: 3 });
    expect((await ctx.admin.client.get(`${thread}/comments?limit=1001`)).status).toBe(400);
    expect((await ctx.admin.client.get(`${thread}/comments?status=closed`)).status).toBe(400);
    expect((await ctx.admin.client.get(`${thread}/comments?page=nonsense`)).status).toBe(400);

    const commenters = await ctx.admin.client.get(`${thread}/commenters`);
    expect(commenters.body.count).toBe(2);
    expect(commenters.body.items.map((m: { id: string }) => m.id).sort()).toEqual(
      [ctx.admin.user.id, commenter.user.id].sort(),
    );
    expect(commenters.body.items[0]).toMatchObject({ object: 'member', user: { object: 'user' } });
    const firstCommenter = await ctx.admin.client.get(`${thread}/commenters?limit=1`);
    expect(firstCommenter.body.items).toHaveLength(1);
    expect(firstCommenter.body.next.page).toBeTypeOf('string');
  });

  it('permissions: outsider 404, reader 403 on writes, author-only edits, admin deletes any', async () => {
    const ctx = await newSpace();
    const thread = threadOf(ctx);
    const commenter = await h.member(ctx.orgId, 'comment');
    const other = await h.member(ctx.orgId, 'edit');
    const reader = await h.member(ctx.orgId, 'read');
    const outsider = await h.user();
    const posted = await commenter.client.post(`${thread}/comments`, text('Mine'));
    expect(posted.status).toBe(201);
    const url = `${thread}/comments/${posted.body.id}`;

    expect((await outsider.client.get(`${thread}/comments`)).status).toBe(404);
    expect((await outsider.client.get(url)).status).toBe(404);
    expect((await outsider.client.post(`${thread}/comments`, text('x'))).status).toBe(404);
    expect((await outsider.client.get(`${thread}/commenters`)).status).toBe(404);

    const asReader = await reader.client.get(url);
    expect(asReader.status).toBe(200);
    expect(asReader.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await reader.client.post(`${thread}/comments`, text('x'))).status).toBe(403);
    expect((await reader.client.post(`${url}/replies`, text('x'))).status).toBe(403);
    expect((await reader.client.put(url, { resolved: true })).status).toBe(403);
    expect((await reader.client.delete(url)).status).toBe(403);

    expect((await other.client.put(url, text('Not mine'))).status).toBe(403);
    expect((await other.client.put(url, { resolved: true })).status).toBe(403);
    expect((await other.client.delete(url)).status).toBe(403);
    // Anyone who may comment reacts and replies.
    expect((await other.client.put(url, { addedReactions: ['👀'] })).status).toBe(200);
    const reply = await other.client.post(`${url}/replies`, text('A reply'));
    expect(reply.status).toBe(201);
    expect((await commenter.client.put(`${url}/replies/${reply.body.id}`, text('Edited'))).status).toBe(403);
    expect((await commenter.client.delete(`${url}/replies/${reply.body.id}`)).status).toBe(403);
    expect((await other.client.get(url)).body.permissions).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: false,
    });

    expect((await commenter.client.put(url, text('Mine, edited'))).status).toBe(200);
    expect((await ctx.admin.client.put(url, text('Admin rewrites'))).status).toBe(403);
    expect((await ctx.admin.client.put(url, { resolved: true })).status).toBe(200);
    expect((await ctx.admin.client.delete(`${url}/replies/${reply.body.id}`)).status).toBe(204);
    expect((await ctx.admin.client.delete(url)).status).toBe(204);
  });

  it('refuses bad input: empty body, unknown page, node without page, unknown fields, long bodies', async () => {
    const ctx = await newSpace();
    const thread = threadOf(ctx);
    const post = (body: unknown) => ctx.admin.client.post(`${thread}/comments`, body);
    expect((await post({})).status).toBe(400);
    expect((await post({ body: {} })).status).toBe(400);
    expect((await post(text(''))).status).toBe(400);
    expect((await post({ ...text('x'), page: 'nope' })).status).toBe(400);
    expect((await post({ ...text('x'), node: 'n1' })).status).toBe(400);
    expect((await post({ ...text('x'), colour: 'red' })).status).toBe(400);
    expect((await post({ body: { document: { object: 'paragraph', nodes: [] } } })).status).toBe(400);
    expect((await post(text('x'.repeat(20_001)))).status).toBe(400);
    expect((await post(text('x'.repeat(20_000)))).status).toBe(201);
    const attached = await post({ ...text('On a block'), page: ctx.pageId, node: 'block-1' });
    expect(attached.body.target).toMatchObject({ page: { id: ctx.pageId }, node: { id: 'block-1' } });
    const id = attached.body.id;
    expect((await ctx.admin.client.put(`${thread}/comments/${id}`, { resolved: 'yes' })).status).toBe(400);
    expect(
      (await ctx.admin.client.put(`${thread}/comments/${id}`, { addedReactions: Array(21).fill('👍') })).status,
    ).toBe(400);
    expect((await ctx.admin.client.get(`${thread}/comments/${id}/replies/nope`)).status).toBe(404);
    expect((await ctx.admin.client.get(`${thread}/comments/nope/replies`)).status).toBe(404);
  });

  it('mentions members as mention inlines, by id or e-mail; not outsiders', async () => {
    const ctx = await newSpace();
    const thread = threadOf(ctx);
    const member = await h.member(ctx.orgId, 'read');
    const outsider = await h.user();
    const res = await ctx.admin.client.post(
      `${thread}/comments`,
      text(`Hi @${member.user.id} and @${member.user.email}, not @${outsider.user.id}; \`@${member.user.id}\``),
    );
    expect(res.status).toBe(201);
    const inlines = res.body.body.document.nodes[0].nodes.filter((n: { object: string }) => n.object === 'inline');
    expect(inlines).toEqual([
      { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: member.user.id } } },
      { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: member.user.id } } },
    ]);
    const markdown = await ctx.admin.client.get(`${thread}/comments/${res.body.id}?format=markdown`);
    expect(markdown.body.body.markdown).toContain(
      `Hi @${member.user.id} and @${member.user.id}, not @${outsider.user.id}`,
    );

    const mention = (user: string) => ({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } } }],
        },
      ],
    });
    expect(
      (await ctx.admin.client.post(`${thread}/comments`, { body: { document: mention(member.user.id) } })).status,
    ).toBe(201);
    const refused = await ctx.admin.client.post(`${thread}/comments`, {
      body: { document: mention(outsider.user.id) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(outsider.user.id);
  });
});

describe('the space comments counter', () => {
  it('counts the open comments of the space itself, in lists too', async () => {
    const ctx = await newSpace();
    await ctx.admin.client.post(`${ctx.base}/comments`, text('One'));
    const two = await ctx.admin.client.post(`${ctx.base}/comments`, text('Two'));
    await ctx.admin.client.post(`${ctx.base}/comments/${two.body.id}/replies`, text('Reply'));
    await ctx.admin.client.post(`${ctx.base}/change-requests/${ctx.crId}/comments`, text('In the change request'));
    expect((await ctx.admin.client.get(ctx.base)).body.comments).toBe(2);
    await ctx.admin.client.put(`${ctx.base}/comments/${two.body.id}`, { resolved: true });
    expect((await ctx.admin.client.get(ctx.base)).body.comments).toBe(1);
    const list = await ctx.admin.client.get(`/v1/orgs/${ctx.orgId}/spaces`);
    expect(list.body.items.find((s: { id: string }) => s.id === ctx.spaceId).comments).toBe(1);
  });
});

describe('the change request comments counter', () => {
  it('counts the open comments of each change request, in its list too', async () => {
    const ctx = await newSpace();
    const cr = `${ctx.base}/change-requests/${ctx.crId}`;
    expect((await ctx.admin.client.get(cr)).body.comments).toBe(0);
    await ctx.admin.client.post(`${cr}/comments`, text('One'));
    const two = await ctx.admin.client.post(`${cr}/comments`, text('Two'));
    await ctx.admin.client.post(`${cr}/comments/${two.body.id}/replies`, text('A reply is not a comment'));
    await ctx.admin.client.post(`${ctx.base}/comments`, text('On the space, not the change request'));
    expect((await ctx.admin.client.get(cr)).body.comments).toBe(2);
    await ctx.admin.client.put(`${cr}/comments/${two.body.id}`, { resolved: true });
    expect((await ctx.admin.client.get(cr)).body.comments).toBe(1);
    const list = await ctx.admin.client.get(`${ctx.base}/change-requests`);
    const counts = Object.fromEntries(list.body.items.map((c: { id: string; comments: number }) => [c.id, c.comments]));
    expect(counts[ctx.crId]).toBe(1);
  });
});

describe('comment events', () => {
  it('records comment.created, comment.updated and comment.deleted in the audit log', async () => {
    const ctx = await newSpace();
    const posted = await ctx.admin.client.post(`${ctx.base}/comments`, text('Hello'));
    const url = `${ctx.base}/comments/${posted.body.id}`;
    const reply = await ctx.admin.client.post(`${url}/replies`, text('Hi'));
    await ctx.admin.client.put(url, { resolved: true });
    await ctx.admin.client.delete(`${url}/replies/${reply.body.id}`);
    await ctx.admin.client.delete(url);
    // A refused change records nothing.
    expect((await ctx.admin.client.put(`${ctx.base}/comments/nope`, { resolved: true })).status).toBe(404);
    const events = await ctx.admin.client.get(`/v1/orgs/${ctx.orgId}/audit-events`);
    const ours = events.body.items
      .filter((e: { action: string }) => e.action.startsWith('comment.'))
      .map((e: { action: string; target: { type: string; id: string } }) => [e.action, e.target.type, e.target.id]);
    expect(ours).toEqual([
      ['comment.deleted', 'comment', posted.body.id],
      ['comment.deleted', 'comment-reply', reply.body.id],
      ['comment.updated', 'comment', posted.body.id],
      ['comment.created', 'comment-reply', reply.body.id],
      ['comment.created', 'comment', posted.body.id],
    ]);
  });
});
