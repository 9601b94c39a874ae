/**
 * Contract test of comments and reviews: every operation driven through the official `@gitbook/api`
 * client, every response validated against GitBook's own schemas (Comment, CommentReply,
 * OrganizationMember, ChangeRequestReview, ChangeRequestUserContributor, the Error of a 404/403).
 *
 * One deliberate difference: posting a comment or a reply answers 201 with Location, where the
 * official document lists 200; that body is checked against the documented 200 schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import { type ContractServer, startContractServer } from './server.js';
import { assertRequestConforms, expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

const COMMENT_OPERATIONS = ['listComments', 'postComment', 'getComment', 'updateComment', 'deleteComment'];
const REPLY_OPERATIONS = [
  'listCommentReplies',
  'postCommentReply',
  'getCommentReply',
  'updateCommentReply',
  'deleteCommentReply',
];
const REVIEW_OPERATIONS = [
  ...[...COMMENT_OPERATIONS, ...REPLY_OPERATIONS, 'listCommenters'].flatMap((op) => [
    `${op}InSpace`,
    `${op}InChangeRequest`,
  ]),
  'submitChangeRequestReview',
  'getReviewsByChangeRequestId',
  'getChangeRequestReviewById',
  'removeRequestedReviewerFromChangeRequest',
  'getContributorsByChangeRequestId',
] as const;

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

async function newSpace() {
  const { id: orgId, admin } = await server.harness.org();
  const api = server.client(admin.token);
  const spaceId = (await api.orgs.createSpace(orgId, { title: 'Reviewed' })).data.id;
  const seed = (await api.spaces.createChangeRequest(spaceId, { subject: 'Seed' })).data.id;
  const seeded = await api.spaces.updateChangeRequestContent(
    spaceId,
    seed,
    { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Hello.' } }] },
    { compat: false },
  );
  const pageId = (seeded.data as unknown as { changes: Array<{ page: { id: string } }> }).changes[0]!.page.id;
  await api.spaces.mergeChangeRequest(spaceId, seed);
  return { orgId, admin, api, spaceId, pageId };
}

/** Calls of one thread (space or change request) with the official client's argument order. */
function threadCalls(api: ReturnType<ContractServer['client']>, spaceId: string, cr?: string) {
  const s = api.spaces;
  if (cr === undefined) {
    return {
      suffix: 'InSpace',
      list: (q: object) => s.listCommentsInSpace(spaceId, q),
      post: (b: never) => s.postCommentInSpace(spaceId, b),
      get: (c: string, q: object) => s.getCommentInSpace(spaceId, c, q),
      update: (c: string, b: object) => s.updateCommentInSpace(spaceId, c, b),
      remove: (c: string) => s.deleteCommentInSpace(spaceId, c),
      listReplies: (c: string, q: object) => s.listCommentRepliesInSpace(spaceId, c, q),
      postReply: (c: string, b: never) => s.postCommentReplyInSpace(spaceId, c, b),
      getReply: (c: string, r: string, q: object) => s.getCommentReplyInSpace(spaceId, c, r, q),
      updateReply: (c: string, r: string, b: object) => s.updateCommentReplyInSpace(spaceId, c, r, b),
      removeReply: (c: string, r: string) => s.deleteCommentReplyInSpace(spaceId, c, r),
      commenters: (q: object) => s.listCommentersInSpace(spaceId, q),
    };
  }
  return {
    suffix: 'InChangeRequest',
    list: (q: object) => s.listCommentsInChangeRequest(spaceId, cr, q),
    post: (b: never) => s.postCommentInChangeRequest(spaceId, cr, b),
    get: (c: string, q: object) => s.getCommentInChangeRequest(spaceId, cr, c, q),
    update: (c: string, b: object) => s.updateCommentInChangeRequest(spaceId, cr, c, b),
    remove: (c: string) => s.deleteCommentInChangeRequest(spaceId, cr, c),
    listReplies: (c: string, q: object) => s.listCommentRepliesInChangeRequest(spaceId, cr, c, q),
    postReply: (c: string, b: never) => s.postCommentReplyInChangeRequest(spaceId, cr, c, b),
    getReply: (c: string, r: string, q: object) => s.getCommentReplyInChangeRequest(spaceId, cr, c, r, q),
    updateReply: (c: string, r: string, b: object) => s.updateCommentReplyInChangeRequest(spaceId, cr, c, r, b),
    removeReply: (c: string, r: string) => s.deleteCommentReplyInChangeRequest(spaceId, cr, c, r),
    commenters: (q: object) => s.listCommentersInChangeRequest(spaceId, cr, q),
  };
}

describe('comments through the official client', () => {
  for (const where of ['space', 'change request'] as const) {
    it(`every comment and reply operation in a ${where}`, async () => {
      const { orgId, admin, api, spaceId, pageId } = await newSpace();
      const cr = where === 'space' ? undefined : (await api.spaces.createChangeRequest(spaceId, {})).data.id;
      const t = threadCalls(api, spaceId, cr);
      const op = (name: string) => `${name}${t.suffix}`;
      const member: TestUser = await server.harness.member(orgId, 'comment');

      const postBody = { body: { markdown: `Hello @${member.user.id}` }, page: pageId, node: 'block' };
      assertRequestConforms(op('postComment'), postBody);
      const posted = await expectConforms(op('postComment'), t.post(postBody as never), 201, 200);
      const id = (posted.data as { id: string }).id;
      const docBody = {
        body: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                data: {},
                nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Doc', marks: [] }] }],
              },
            ],
          },
        },
      };
      assertRequestConforms(op('postComment'), docBody);
      await expectConforms(op('postComment'), t.post(docBody as never), 201, 200);

      await expectConforms(op('listComments'), t.list({ order: 'asc', status: 'all', limit: 1 }), 200);
      await expectConforms(op('listComments'), t.list({ format: 'markdown', targetPage: pageId }), 200);
      await expectConforms(op('getComment'), t.get(id, { format: 'markdown' }), 200);
      const update = { resolved: true, body: { markdown: 'Edited' }, addedReactions: ['👍'] };
      assertRequestConforms(op('updateComment'), update);
      const updated = await expectConforms(op('updateComment'), t.update(id, update), 200);
      expect(updated.data).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });

      const replyBody = { body: { markdown: 'A reply' } };
      assertRequestConforms(op('postCommentReply'), replyBody);
      const reply = await expectConforms(op('postCommentReply'), t.postReply(id, replyBody as never), 201, 200);
      const replyId = (reply.data as { id: string }).id;
      await expectConforms(op('listCommentReplies'), t.listReplies(id, { limit: 10 }), 200);
      await expectConforms(op('getCommentReply'), t.getReply(id, replyId, { format: 'document' }), 200);
      await expectConforms(
        op('updateCommentReply'),
        t.updateReply(id, replyId, { body: { markdown: 'Edited reply' }, addedReactions: ['🎉'] }),
        200,
      );
      await expectConforms(op('getComment'), t.get(id, {}), 200);
      await expectConforms(op('listCommenters'), t.commenters({ limit: 10 }), 200);

      const outsider = threadCalls(server.client((await server.harness.user()).token), spaceId, cr);
      await expectApiError(op('getComment'), outsider.get(id, {}), 404);
      const reader = await server.harness.member(orgId, 'read');
      const asReader = threadCalls(server.client(reader.token), spaceId, cr);
      await expectApiError(op('postComment'), asReader.post(replyBody as never), 403);

      await expectConforms(op('deleteCommentReply'), t.removeReply(id, replyId), 204);
      await expectConforms(op('deleteComment'), t.remove(id), 204);
      await expectApiError(op('getComment'), t.get(id, {}), 404);
      expect(admin.user.id).toBeTypeOf('string');
    });
  }
});

describe('reviews through the official client', () => {
  it('submits, lists and gets reviews; contributors; removes a requested reviewer', async () => {
    const { orgId, api, spaceId } = await newSpace();
    const author = await server.harness.member(orgId, 'edit');
    const asAuthor = server.client(author.token);
    const cr = (await asAuthor.spaces.createChangeRequest(spaceId, { subject: 'Review me' })).data.id;
    await asAuthor.spaces.updateChangeRequestContent(spaceId, cr, {
      changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'New.' } }],
    });
    const reviewer = await server.harness.member(orgId, 'read');
    await asAuthor.spaces.requestReviewersForChangeRequest(spaceId, cr, { users: [reviewer.user.id] });
    const asReviewer = server.client(reviewer.token);

    const body = { status: 'changes-requested' as const, comment: { markdown: 'Fix it' } };
    assertRequestConforms('submitChangeRequestReview', body);
    const review = await expectConforms(
      'submitChangeRequestReview',
      asReviewer.spaces.submitChangeRequestReview(spaceId, cr, body as never),
      201,
    );
    const reviewId = (review.data as { id: string }).id;
    await expectConforms(
      'submitChangeRequestReview',
      api.spaces.submitChangeRequestReview(spaceId, cr, { status: 'approved' } as never),
      201,
    );
    const listed = await expectConforms(
      'getReviewsByChangeRequestId',
      api.spaces.getReviewsByChangeRequestId(spaceId, cr, { format: 'markdown' }),
      200,
    );
    expect((listed.data as { count: number }).count).toBe(2);
    await expectConforms(
      'getReviewsByChangeRequestId',
      api.spaces.getReviewsByChangeRequestId(spaceId, cr, { outdated: true }),
      200,
    );
    await expectConforms(
      'getChangeRequestReviewById',
      api.spaces.getChangeRequestReviewById(spaceId, cr, reviewId, {}),
      200,
    );
    await expectApiError(
      'getChangeRequestReviewById',
      api.spaces.getChangeRequestReviewById(spaceId, cr, 'missing', {}),
      404,
    );
    await expectApiError(
      'submitChangeRequestReview',
      asAuthor.spaces.submitChangeRequestReview(spaceId, cr, { status: 'approved' } as never),
      403,
    );
    const contributors = await expectConforms(
      'getContributorsByChangeRequestId',
      api.spaces.getContributorsByChangeRequestId(spaceId, cr),
      200,
    );
    expect(
      (contributors.data as { items: Array<{ actionType: string }> }).items.map((c) => c.actionType).sort(),
    ).toEqual(['comment', 'edit']);
    await expectConforms(
      'removeRequestedReviewerFromChangeRequest',
      asAuthor.spaces.removeRequestedReviewerFromChangeRequest(spaceId, cr, reviewer.user.id),
      204,
    );
  });

  it('covers every operation of comments and reviews', () => {
    expectOperationsCovered(REVIEW_OPERATIONS);
  });
});
