/**
 * `If-Match` on a change request's batch edit (`POST …/change-requests/{id}/content`): the value
 * names the change request's revision; a stale one is a 412 with the envelope and the current
 * revision, and nothing is written; without the header the edit is unconditional.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

async function setup() {
  const ctx: SpaceWorld = await h.space('Docs');
  const cr = await newChangeRequest(ctx);
  const url = `${ctx.base}/change-requests/${cr.id}/content`;
  const first = await ctx.admin.client.post(url, {
    changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'One' } }],
  });
  expect(first.status).toBe(200);
  const pages = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content`);
  const pageId = pages.body.pages[0].id as string;
  const edit = (markdown: string, ifMatch?: string) =>
    ctx.admin.client.request(
      'POST',
      url,
      { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] },
      ifMatch === undefined ? {} : { 'if-match': ifMatch },
    );
  const body = async () =>
    (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`)).body
      .markdown as string;
  const revision = async () =>
    (await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}`)).body.revision as string;
  return { ctx, cr, edit, body, revision, firstRevision: first.body.revision as string };
}

describe('If-Match on a batch edit of a change request', () => {
  it('applies the edit when it names the current revision, and answers the new one', async () => {
    const s = await setup();
    const res = await s.edit('Two', `"${s.firstRevision}"`);
    expect(res.status).toBe(200);
    expect(res.body.revision).not.toBe(s.firstRevision);
    expect(await s.body()).toBe('Two\n');
    // The new revision is the next precondition; a list of tags matches when one names it.
    const next = await s.edit('Three', `"other", "${res.body.revision}"`);
    expect(next.status).toBe(200);
    expect(await s.body()).toBe('Three\n');
  });

  it('answers 412 with the envelope and the current revision for a stale one, writing nothing', async () => {
    const s = await setup();
    const concurrent = await s.edit('Theirs');
    expect(concurrent.status).toBe(200);
    const current = concurrent.body.revision as string;
    const res = await s.edit('Mine', `"${s.firstRevision}"`);
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ error: { code: 412, message: expect.stringContaining(current) } });
    expect(res.headers.etag).toBe(`"${current}"`);
    expect(await s.body()).toBe('Theirs\n');
    expect(await s.revision()).toBe(current);
  });

  it('compares strongly: a weak tag of the current revision is a 412', async () => {
    const s = await setup();
    const res = await s.edit('Mine', `W/"${s.firstRevision}"`);
    expect(res.status).toBe(412);
    expect(await s.body()).toBe('One\n');
  });

  it('is unconditional without the header, and with * while the change request exists', async () => {
    const s = await setup();
    expect((await s.edit('Two')).status).toBe(200);
    expect((await s.edit('Three', '*')).status).toBe(200);
    expect(await s.body()).toBe('Three\n');
  });

  it('of two edits naming the same revision at once, one applies and the other is a 412', async () => {
    const s = await setup();
    const tag = `"${s.firstRevision}"`;
    const answers = await Promise.all([s.edit('A', tag), s.edit('B', tag)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200);
    expect(await s.body()).toBe(winner === answers[0] ? 'A\n' : 'B\n');
  });

  it('checks access first: 404 for an outsider, 403 for a reader, whatever the If-Match', async () => {
    const s = await setup();
    const outsider = await h.user();
    const url = `${s.ctx.base}/change-requests/${s.cr.id}/content`;
    const body = { changes: [{ operation: 'insert_page', title: 'X' }] };
    const stale = { 'if-match': '"stale"' };
    expect((await outsider.client.request('POST', url, body, stale)).status).toBe(404);
    const reader = await h.member(s.ctx.orgId, 'read');
    expect((await reader.client.request('POST', url, body, stale)).status).toBe(403);
  });
});
