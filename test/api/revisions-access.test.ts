/**
 * The revision history through HTTP, who and what: a revision is readable by readers of the space
 * and a 404 for an outsider; 404 for what is not in the revision and for a revision of another
 * space; a group page has no document; bad input. Reading revisions and their changes:
 * revisions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type History, history, merged, newSpace } from '../helpers/revisions.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('revision history: who and what', () => {
  let hist: History;
  beforeAll(async () => {
    hist = await history(h);
  });

  it('is readable by readers of the space, and a 404 for anyone else', async () => {
    const { ctx, first } = hist;
    const reader = await h.member(ctx.orgId, 'read');
    const outsider = await h.user();
    const paths = [
      `/revisions/${first}`,
      `/revisions/${first}/changes`,
      `/revisions/${first}/pages`,
      `/revisions/${first}/files`,
      `/revisions/${first}/files/${hist.pixel}`,
      `/revisions/${first}/page/${hist.guide}`,
      `/revisions/${first}/page/${hist.guide}/document`,
      `/revisions/${first}/path/guide`,
      `/revisions/${first}/reusable-contents/${hist.snippet}`,
      `/revisions/${first}/reusable-contents/${hist.snippet}/document`,
    ];
    for (const path of paths) {
      expect((await reader.client.get(`${ctx.base}${path}`)).status, path).toBe(200);
      const denied = await outsider.client.get(`${ctx.base}${path}`);
      expect(denied.status, path).toBe(404);
      expect(denied.body.error.code).toBe(404);
      expect((await h.anonymous.get(`${ctx.base}${path}`)).status, path).toBe(401);
    }
    const noScope = await h.user({ scopes: ['user:read'] });
    expect((await noScope.client.get(`${ctx.base}/revisions/${first}`)).status).toBe(403);
  });

  it('is a 404 for a revision of another space and for what the revision does not hold', async () => {
    const { ctx, first, second } = hist;
    // Another space of the same organization, readable by the same admin.
    const other = await ctx.admin.client.post(`/v1/orgs/${ctx.orgId}/spaces`, { title: 'Other' });
    const foreign = `/v1/spaces/${other.body.id}/revisions/${first}`;
    for (const path of ['', '/changes', '/pages', '/files', `/page/${hist.guide}`, `/path/guide`]) {
      const res = await ctx.admin.client.get(`${foreign}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.error.message).toContain('revision');
    }
    const missing = [
      `/revisions/nope`,
      `/revisions/nope/changes`,
      `/revisions/${first}/files/nope`,
      `/revisions/${first}/page/nope`,
      `/revisions/${first}/page/nope/document`,
      `/revisions/${first}/path/nope`,
      `/revisions/${first}/path/guide/nope`,
      `/revisions/${first}/reusable-contents/nope`,
      `/revisions/${first}/reusable-contents/nope/document`,
      `/revisions/${second}/files/nope`,
    ];
    for (const path of missing) {
      const res = await ctx.admin.client.get(`${ctx.base}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
    expect((await ctx.admin.client.get(`/v1/spaces/nope/revisions/${first}`)).status).toBe(404);
  });

  it('has no document for a group page; a group is found by its path', async () => {
    const ctx = await newSpace(h);
    const { edit, revision } = await merged(ctx, [
      { operation: 'insert_page', type: 'group', title: 'Reference', document: {} },
    ]);
    const group = edit.changes[0].page.id;
    const doc = await ctx.admin.client.get(`${ctx.base}/revisions/${revision}/page/${group}/document`);
    expect(doc.status).toBe(404);
    const byPath = await ctx.admin.client.get(`${ctx.base}/revisions/${revision}/path/reference`);
    expect(byPath.body).toMatchObject({ id: group, type: 'group' });
  });

  it('refuses bad input with 400 naming the parameter', async () => {
    const { ctx, first } = hist;
    const bad = [
      `/revisions/${first}?metadata=maybe`,
      `/revisions/${first}/changes?limit=-1`,
      `/revisions/${first}/changes?limit=1001`,
      `/revisions/${first}/changes?limit=two`,
      `/revisions/${first}/files?limit=1001`,
      `/revisions/${first}/files?page=not-a-cursor`,
      `/revisions/${first}/page/${hist.guide}?format=html`,
      `/revisions/${first}/page/${hist.guide}?format=markdown&format.markdown.refs=absolute`,
      `/revisions/${first}/page/${hist.guide}/document?evaluated=sometimes`,
      `/revisions/${first}/reusable-contents/${hist.snippet}/document?dereferenced=all`,
      `/revisions/${first}/path/guide?cachedMetadata=often`,
    ];
    for (const path of bad) {
      const res = await ctx.admin.client.get(`${ctx.base}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${first}/changes?limit=1000`)).status).toBe(200);
    expect((await ctx.admin.client.get(`${ctx.base}/revisions/${first}/files?limit=1000`)).status).toBe(200);
    expect((await ctx.admin.client.post(`${ctx.base}/revisions/${first}`, {})).status).toBe(405);
  });
});
