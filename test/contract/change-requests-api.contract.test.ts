/**
 * Contract test of the change-request operations the review screen and organization dashboards
 * use: getChangeRequestChanges (pages, files and reusable contents added, edited, moved and removed
 * against the change request's base), updateChangeRequest (clean, and a conflict that is a 409
 * naming the pages with nothing applied), and listChangeRequestsForOrganization with each filter,
 * both orders and paging edges (a space the caller cannot read never appears). Driven through the
 * official client; answers validated against the official schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRevision, writeRevision } from '../../src/content/store.js';
import { PNG } from '../helpers/fixtures.js';
import type { GitBookAPI } from './official.js';
import { type ContractServer, startContractServer } from './server.js';
import {
  expectApiError,
  expectConforms,
  expectOperationsCovered,
  validateAgainst,
  validateResponse,
} from './validate.js';

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(async () => server?.close());

type Changed = {
  changes: Array<{ page?: { id: string }; reusableContent?: string }>;
  insertedFiles: Array<{ id: string }>;
};

async function edit(api: GitBookAPI, spaceId: string, cr: string, changes: unknown[]): Promise<Changed> {
  const res = await api.spaces.updateChangeRequestContent(spaceId, cr, { changes } as never, { compat: false });
  return res.data as unknown as Changed;
}

/** A space whose live content has Guide, Setup and Extra, a file and a reusable content. */
async function seededSpace() {
  const { id: orgId, admin } = await server.harness.org();
  const api = server.client(admin.token);
  const spaceId = (await api.orgs.createSpace(orgId, { title: 'Reviewed' })).data.id;
  const seed = (await api.spaces.createChangeRequest(spaceId, { subject: 'Seed' })).data.id;
  const seeded = await edit(api, spaceId, seed, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Guide.' } },
    { operation: 'insert_page', title: 'Setup', document: { markdown: 'Setup.' } },
    { operation: 'insert_page', title: 'Extra', document: { markdown: 'Extra.' } },
    {
      operation: 'insert_files',
      files: [
        { ref: 'old.png', name: 'old.png', contentType: 'image/png', base64: PNG.toString('base64') },
        { ref: 'keep.png', name: 'keep.png', contentType: 'image/png', base64: PNG.toString('base64') },
      ],
    },
    { operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Shared.' } },
  ]);
  const [guide, setup, extra] = seeded.changes.slice(0, 3).map((c) => c.page!.id) as [string, string, string];
  const snippet = seeded.changes[3]!.reusableContent!;
  const file = seeded.insertedFiles[0]!.id;
  const keep = seeded.insertedFiles[1]!.id;
  await api.spaces.mergeChangeRequest(spaceId, seed);
  return { orgId, admin, api, spaceId, guide, setup, extra, snippet, file, keep };
}

/**
 * Removes file `removed` and renames file `renamed` in the change request's content, as a new
 * revision of it: the batch edit has no operation for either (a Git import does both).
 */
async function changeFiles(spaceId: string, cr: string, removed: string, renamed: string) {
  const db = server.harness.db;
  const space = await db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirstOrThrow();
  const row = await db.selectFrom('change_requests').selectAll().where('id', '=', cr).executeTakeFirstOrThrow();
  const snapshot = (await loadRevision(db, space, row.revision_id))!;
  const files = snapshot.files
    .filter((f) => f.id !== removed)
    .map((f) => (f.id === renamed ? { ...f, name: 'kept.png' } : f));
  const written = await writeRevision(db, { ...snapshot, parents: [snapshot.id], files, createdBy: null });
  await db.updateTable('change_requests').set({ revision_id: written.id }).where('id', '=', cr).execute();
}

/** The changes of an answer, page_edited left out (see revisions.contract.test.ts: the official oneOf cannot match it). */
function checkChanges(data: { changes: unknown[] }) {
  const all = data.changes as Array<Record<string, unknown>>;
  for (const c of all.filter((c) => c.type === 'page_edited')) {
    expect(validateAgainst('#/components/schemas/ChangedRevisionPage', c.page)).toEqual([]);
  }
  const rest = all.filter((c) => c.type !== 'page_edited');
  expect(validateResponse('getChangeRequestChanges', 200, { ...data, changes: rest })).toEqual([]);
}

describe('getChangeRequestChanges', () => {
  it('lists pages, files and reusable contents added, edited, moved and removed against the base', async () => {
    const s = await seededSpace();
    const cr = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Review me' })).data.id;
    const empty = await expectConforms(
      'getChangeRequestChanges',
      s.api.spaces.getChangeRequestChanges(s.spaceId, cr),
      200,
    );
    expect(empty.data).toEqual({ changes: [] });
    const inserted = await edit(s.api, s.spaceId, cr, [
      { operation: 'insert_page', title: 'New page', document: { markdown: 'New.' } },
      { operation: 'update_page', page: s.guide, title: 'Guide v2' },
      { operation: 'update_page', page: s.extra, into: s.guide },
      { operation: 'delete_page', page: s.setup },
      {
        operation: 'insert_files',
        files: [{ ref: 'new.png', name: 'new.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      { operation: 'insert_reusable_content', title: 'Second snippet', document: { markdown: 'Two.' } },
      { operation: 'update_reusable_content', reusableContent: s.snippet, title: 'Snippet v2' },
    ]);
    const newPage = inserted.changes[0]!.page!.id;
    await changeFiles(s.spaceId, cr, s.file, s.keep);
    const res = await s.api.spaces.getChangeRequestChanges(s.spaceId, cr, { limit: 100 });
    const changes = res.data.changes as Array<Record<string, any>>;
    const summary = changes.map((c) => [
      c.type,
      c.page?.id ?? c.file?.name ?? (c.reusableContent?.title as string | undefined),
    ]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['page_created', newPage],
        ['page_edited', s.guide],
        ['page_moved', s.extra],
        ['page_deleted', s.setup],
        ['file_created', 'new.png'],
        ['file_edited', 'kept.png'],
        ['file_deleted', 'old.png'],
        ['reusable_content_created', 'Second snippet'],
        ['reusable_content_edited', 'Snippet v2'],
      ]),
    );
    expect(changes).toHaveLength(9);
    expect(changes.find((c) => c.type === 'page_moved')?.parent).toMatchObject({ after: { id: s.guide } });
    expect(changes.find((c) => c.type === 'file_edited')?.attributes).toEqual({
      name: { before: 'keep.png', after: 'kept.png' },
    });
    expect(res.data.more).toBeUndefined();
    checkChanges(res.data);

    // The default limit is 10; limit cuts the list and says how many more there are; 0 keeps none.
    const two = await s.api.spaces.getChangeRequestChanges(s.spaceId, cr, { limit: 2 });
    expect(two.data.changes).toHaveLength(2);
    expect(two.data.more).toBe(7);
    const none = await s.api.spaces.getChangeRequestChanges(s.spaceId, cr, { limit: 0 });
    expect(none.data).toEqual({ changes: [], more: 9 });
    // By number too.
    const number = (await s.api.spaces.getChangeRequestById(s.spaceId, cr)).data.number;
    const byNumber = await s.api.spaces.getChangeRequestChanges(s.spaceId, String(number), { limit: 100 });
    expect(byNumber.data.changes).toHaveLength(9);

    const bad = await s.admin.client.get(`/v1/spaces/${s.spaceId}/change-requests/${cr}/changes?limit=-1`);
    expect(bad.status).toBe(400);
    const tooMany = await s.admin.client.get(`/v1/spaces/${s.spaceId}/change-requests/${cr}/changes?limit=1001`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain('limit');

    const outsider = server.client((await server.harness.user()).token);
    await expectApiError('getChangeRequestChanges', outsider.spaces.getChangeRequestChanges(s.spaceId, cr), 404);
    await expectApiError('getChangeRequestChanges', s.api.spaces.getChangeRequestChanges(s.spaceId, 'missing'), 404);
  });
});

describe('updateChangeRequest', () => {
  it('brings a change request up to date with the live content; then its changes count from there', async () => {
    const s = await seededSpace();
    const mine = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Mine' })).data.id;
    await edit(s.api, s.spaceId, mine, [{ operation: 'update_page', page: s.guide, title: 'Guide (mine)' }]);
    // Already up to date: nothing to do, the change request keeps its revision.
    const before = (await s.api.spaces.getChangeRequestById(s.spaceId, mine)).data;
    const noop = await expectConforms('updateChangeRequest', s.api.spaces.updateChangeRequest(s.spaceId, mine), 200);
    expect(noop.data).toEqual({ revision: before.revision, result: 'update' });

    // Someone else's change lands on the live content: mine is outdated.
    const other = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Other' })).data.id;
    await edit(s.api, s.spaceId, other, [{ operation: 'update_page', page: s.setup, title: 'Setup v2' }]);
    await s.api.spaces.mergeChangeRequest(s.spaceId, other);
    expect((await s.api.spaces.getChangeRequestById(s.spaceId, mine)).data.outdated).toBe(true);

    const updated = await expectConforms('updateChangeRequest', s.api.spaces.updateChangeRequest(s.spaceId, mine), 200);
    expect(updated.data.result).toBe('update');
    const after = await expectConforms('getChangeRequestById', s.api.spaces.getChangeRequestById(s.spaceId, mine), 200);
    const space = (await s.api.spaces.getSpaceById(s.spaceId)).data;
    expect(after.data).toMatchObject({
      revision: updated.data.revision,
      revisionInitial: before.revisionInitial,
      revisionMergedAncestor: space.revision,
      outdated: false,
    });
    const pages = (await s.api.spaces.listPagesInChangeRequest(s.spaceId, mine)).data.pages;
    expect(pages.map((p) => p.title)).toEqual(['Guide (mine)', 'Setup v2', 'Extra']);
    // Its changes are now only its own: the live edit is part of its base.
    const changes = await s.api.spaces.getChangeRequestChanges(s.spaceId, mine);
    expect(changes.data.changes.map((c) => [c.type, (c as { page?: { id: string } }).page?.id])).toEqual([
      ['page_edited', s.guide],
    ]);
    const revision = await s.api.spaces.getRevisionById(s.spaceId, updated.data.revision);
    expect(revision.data).toMatchObject({ type: 'update', parents: [before.revision, space.revision] });
    // It merges cleanly afterwards.
    await s.api.spaces.mergeChangeRequest(s.spaceId, mine);
    const live = (await s.api.spaces.listPages(s.spaceId)).data.pages;
    expect(live.map((p) => p.title)).toEqual(['Guide (mine)', 'Setup v2', 'Extra']);

    // The update was recorded as change_request.updated (audit log: newest first, the merge after it).
    const audit = await s.admin.client.get(`/v1/orgs/${s.orgId}/audit-events?limit=3`);
    const actions = audit.body.items.map((e: { action: string; target: { id: string } }) => [e.action, e.target.id]);
    expect(actions).toContainEqual(['change_request.updated', mine]);
  });

  it('refuses a conflicting update with a 409 naming the pages, and changes nothing', async () => {
    const s = await seededSpace();
    const mine = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Mine' })).data.id;
    await edit(s.api, s.spaceId, mine, [{ operation: 'update_page', page: s.guide, title: 'Guide (mine)' }]);
    const other = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Other' })).data.id;
    await edit(s.api, s.spaceId, other, [
      { operation: 'update_page', page: s.guide, title: 'Guide (theirs)' },
      { operation: 'update_page', page: s.setup, title: 'Setup v2' },
    ]);
    await s.api.spaces.mergeChangeRequest(s.spaceId, other);
    const before = (await s.api.spaces.getChangeRequestById(s.spaceId, mine)).data;

    const { body } = await expectApiError(
      'updateChangeRequest',
      s.api.spaces.updateChangeRequest(s.spaceId, mine),
      409,
    );
    const message = (body as { error: { message: string } }).error.message;
    expect(message).toContain(`changed on both sides: page "Guide (mine)" (${s.guide})`);
    expect(message).not.toContain(s.setup);
    const after = (await s.api.spaces.getChangeRequestById(s.spaceId, mine)).data;
    expect(after).toMatchObject({ revision: before.revision, outdated: true, updatedAt: before.updatedAt });
    expect(after.revisionMergedAncestor).toBeUndefined();
    const pages = (await s.api.spaces.listPagesInChangeRequest(s.spaceId, mine)).data.pages;
    expect(pages.map((p) => p.title)).toEqual(['Guide (mine)', 'Setup', 'Extra']);
  });

  it('answers 404 to who cannot see it, 403 to a reader, 409 on a merged one', async () => {
    const s = await seededSpace();
    const cr = (await s.api.spaces.createChangeRequest(s.spaceId, { subject: 'Mine' })).data.id;
    const outsider = server.client((await server.harness.user()).token);
    await expectApiError('updateChangeRequest', outsider.spaces.updateChangeRequest(s.spaceId, cr), 404);
    await expectApiError('updateChangeRequest', s.api.spaces.updateChangeRequest(s.spaceId, 'nope'), 404);
    const reader = server.client((await server.harness.member(s.orgId, 'read')).token);
    await expectApiError('updateChangeRequest', reader.spaces.updateChangeRequest(s.spaceId, cr), 403);
    await s.api.spaces.mergeChangeRequest(s.spaceId, cr);
    await expectApiError('updateChangeRequest', s.api.spaces.updateChangeRequest(s.spaceId, cr), 409);
  });
});

describe('listChangeRequestsForOrganization', () => {
  it('lists the change requests of readable spaces with each filter, both orders and paging', async () => {
    const { id: orgId, admin } = await server.harness.org();
    const api = server.client(admin.token);
    const a = (await api.orgs.createSpace(orgId, { title: 'A' })).data.id;
    const b = (await api.orgs.createSpace(orgId, { title: 'B' })).data.id;
    const hidden = (await api.orgs.createSpace(orgId, { title: 'Hidden' })).data.id;
    await api.spaces.updateSpaceById(hidden, { defaultLevel: null });
    const editorUser = await server.harness.member(orgId, 'edit');
    const editor = server.client(editorUser.token);
    const reviewerUser = await server.harness.member(orgId, 'read');

    const a1 = (await api.spaces.createChangeRequest(a, { subject: 'a1' })).data.id;
    const a2 = (await editor.spaces.createChangeRequest(a, { subject: 'a2' })).data.id;
    const b1 = (await api.spaces.createChangeRequest(b, { subject: 'b1' })).data.id;
    const h1 = (await api.spaces.createChangeRequest(hidden, { subject: 'h1' })).data.id;
    const b2 = (await api.spaces.createChangeRequest(b, { subject: 'b2' })).data.id;
    await api.spaces.updateChangeRequestById(b, b2, { status: 'draft' as never });
    // The editor contributes to a1 by an edit, to b1 by a comment.
    await edit(editor, a, a1, [{ operation: 'insert_page', title: 'By the editor', document: { markdown: 'x' } }]);
    await editor.spaces.postCommentInChangeRequest(b, b1, {
      body: { markdown: 'A remark' },
    } as never);
    await api.spaces.requestReviewersForChangeRequest(b, b1, { users: [reviewerUser.user.id] });
    // A site publishing space B.
    const site = (await api.orgs.createSite(orgId, {})).data.id;
    await api.orgs.addSpaceToSite(orgId, site, { spaceId: b });

    const list = (query?: Parameters<GitBookAPI['orgs']['listChangeRequestsForOrganization']>[1], client = api) =>
      expectConforms(
        'listChangeRequestsForOrganization',
        client.orgs.listChangeRequestsForOrganization(orgId, query),
        200,
      ).then((r) => r.data);
    const ids = (data: { items: Array<{ id: string }> }) => data.items.map((c) => c.id);

    // Default: open ones, most recently updated first (b1 got a comment and reviewers, a1 an edit).
    const all = await list();
    expect(new Set(ids(all))).toEqual(new Set([a1, a2, b1, h1]));
    expect(all.count).toBe(4);
    const byCreated = await list({ orderBy: 'createdAt' as never });
    expect(ids(byCreated)).toEqual([h1, b1, a2, a1]);
    const updatedAts = all.items.map((c) => c.updatedAt);
    expect([...updatedAts].sort().reverse()).toEqual(updatedAts);

    expect(ids(await list({ status: ['draft'] as never }))).toEqual([b2]);
    expect(new Set(ids(await list({ status: ['draft', 'open'] as never })))).toEqual(new Set([a1, a2, b1, b2, h1]));
    expect(ids(await list({ status: ['merged'] as never }))).toEqual([]);
    expect(ids(await list({ creator: editorUser.user.id }))).toEqual([a2]);
    expect(new Set(ids(await list({ contributor: editorUser.user.id })))).toEqual(new Set([a1, a2, b1]));
    expect(ids(await list({ requestedReviewer: reviewerUser.user.id }))).toEqual([b1]);
    expect(new Set(ids(await list({ space: a })))).toEqual(new Set([a1, a2]));
    expect(ids(await list({ site }))).toEqual([b1]);
    expect(ids(await list({ site: 'no-such-site' }))).toEqual([]);
    expect(ids(await list({ topic: 'any' }))).toEqual([]);
    expect(ids(await list({ finding: 'all' as never, space: b }))).toEqual([b1]);

    // Paging: by createdAt, one at a time to the end; limit 0 counts only.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const next = await list({ orderBy: 'createdAt' as never, limit: 1, ...(page ? { page } : {}) });
      expect(next.items.length).toBe(1);
      seen.push(...ids(next));
      page = next.next?.page;
    } while (page);
    expect(seen).toEqual([h1, b1, a2, a1]);
    expect(await list({ limit: 0 })).toEqual({ items: [], count: 4 });
    const full = await list({ limit: 4 });
    expect(full.next).toBeUndefined();

    // The editor cannot read the hidden space: its change request never appears, even asked by space.
    const editorAll = await list(undefined, editor);
    expect(new Set(ids(editorAll))).toEqual(new Set([a1, a2, b1]));
    expect(editorAll.count).toBe(3);
    expect(ids(await list({ space: hidden }, editor))).toEqual([]);

    // Bad input: an unknown status or order, a page cursor not issued, a limit past 1000.
    for (const query of ['status=closed', 'orderBy=title', 'page=nonsense', 'limit=1001']) {
      const res = await admin.client.get(`/v1/orgs/${orgId}/change-requests?${query}`);
      expect(res.status, query).toBe(400);
    }
    // Not a member: 404.
    const outsider = server.client((await server.harness.user()).token);
    await expectApiError(
      'listChangeRequestsForOrganization',
      outsider.orgs.listChangeRequestsForOrganization(orgId),
      404,
    );
  });

  it('covers the operations', () => {
    expectOperationsCovered(['getChangeRequestChanges', 'updateChangeRequest', 'listChangeRequestsForOrganization']);
  });
});
