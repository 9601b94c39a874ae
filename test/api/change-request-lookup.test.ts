/**
 * The space and the change request are read in one query (change-requests/lookup.ts): these pin
 * that the order of the checks did not change with it (the space first, then the change request)
 * and that what a read shows follows the writes, on the very next read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('change request lookup', () => {
  it('answers the space 404 to who cannot see the space, the change request 404 to who can', async () => {
    const ctx = await h.space();
    const cr = (await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'A' })).body;
    const outsider = await h.user();
    for (const key of [cr.id, '1', '99', 'nope', '99999999999999999999']) {
      const res = await outsider.client.get(`${ctx.base}/change-requests/${key}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(`space ${ctx.spaceId} not found`);
      const reviewers = await outsider.client.get(`${ctx.base}/change-requests/${key}/requested-reviewers`);
      expect(reviewers.body.error.message).toBe(`space ${ctx.spaceId} not found`);
    }
    const reader = await h.member(ctx.orgId, 'read');
    // A number past the integer column's range is no change request (not a failed query).
    for (const key of ['99', 'nope', '99999999999999999999']) {
      const res = await reader.client.get(`${ctx.base}/change-requests/${key}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe(`change request ${key} not found in space ${ctx.spaceId}`);
    }
    // A write needing more than the caller's role is a 403 even when the change request is missing.
    const patched = await reader.client.patch(`${ctx.base}/change-requests/99`, { subject: 'x' });
    expect(patched.status).toBe(403);
    const missing = await ctx.admin.client.get(`/v1/spaces/nospace/change-requests/${cr.id}`);
    expect(missing.body.error.message).toBe('space nospace not found');
  });

  it('finds a change request only in its own space, by id or by number', async () => {
    const one = await h.space();
    const crOne = (await one.admin.client.post(`${one.base}/change-requests`, { subject: 'In one' })).body;
    const other = await one.admin.client.post(`/v1/orgs/${one.orgId}/spaces`, { title: 'Other' });
    const otherBase = `/v1/spaces/${other.body.id}`;
    const res = await one.admin.client.get(`${otherBase}/change-requests/${crOne.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(`change request ${crOne.id} not found in space ${other.body.id}`);
    expect((await one.admin.client.get(`${otherBase}/change-requests/1`)).status).toBe(404);
    const crOther = (await one.admin.client.post(`${otherBase}/change-requests`, { subject: 'In other' })).body;
    expect((await one.admin.client.get(`${otherBase}/change-requests/1`)).body.id).toBe(crOther.id);
    expect((await one.admin.client.get(`${one.base}/change-requests/1`)).body.id).toBe(crOne.id);
  });

  it('shows each change on the next read (subject, status, comments, merge, space deletion)', async () => {
    const ctx = await h.space();
    const url = `${ctx.base}/change-requests/1`;
    const cr = (await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'Before' })).body;
    expect((await ctx.admin.client.get(url)).body).toMatchObject({ subject: 'Before', status: 'open', comments: 0 });
    await ctx.admin.client.patch(url, { subject: 'After', status: 'draft' });
    expect((await ctx.admin.client.get(url)).body).toMatchObject({ subject: 'After', status: 'draft' });
    const comment = await ctx.admin.client.post(`${url}/comments`, { body: { markdown: 'Hi' } });
    expect(comment.status).toBe(201);
    expect((await ctx.admin.client.get(url)).body.comments).toBe(1);
    await ctx.admin.client.patch(url, { status: 'open' });
    const edit = { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }] };
    expect((await ctx.admin.client.post(`${url}/content`, edit)).status).toBe(200);
    expect((await ctx.admin.client.post(`${url}/merge`)).status).toBe(200);
    const merged = (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}`)).body;
    expect(merged).toMatchObject({ status: 'merged', mergedBy: { id: ctx.admin.user.id }, outdated: false });
    expect(merged.revisionMerged).toEqual(expect.any(String));
    expect((await ctx.admin.client.delete(ctx.base)).status).toBe(204);
    const gone = await ctx.admin.client.get(url);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe(`space ${ctx.spaceId} not found`);
  });
});
