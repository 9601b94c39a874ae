/**
 * Batch edits of pages through HTTP, beyond the basics of change-requests-content.test.ts: `into`
 * naming a page inserted earlier in the same batch by its `ref`, and the adaptive-content
 * `condition` of a page (stored, read back, removed with an empty string, refused when malformed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from '../helpers/app.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

type TreePage = { id: string; title: string; path: string; condition?: string; pages?: TreePage[] };
const summary = (list: TreePage[]): unknown => list.map((p) => [p.title, p.path, summary(p.pages ?? [])]);

async function tree(ctx: SpaceWorld, cr: string): Promise<TreePage[]> {
  const res = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr}/content/pages`);
  expect(res.status).toBe(200);
  return res.body.pages;
}

describe('into by ref', () => {
  it('places a page into a group (or page) inserted earlier in the same batch, named by its ref', async () => {
    const ctx = await h.space();
    const cr = await newChangeRequest(ctx);
    const res = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', ref: 'guides', type: 'group', title: 'Guides', document: {} },
        { operation: 'insert_page', ref: 'install', into: 'guides', title: 'Install', document: { markdown: 'x' } },
        { operation: 'insert_page', into: 'install', title: 'On Linux', document: { markdown: 'y' } },
      ],
      '?compat=false',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(summary(await tree(ctx, cr.id))).toEqual([
      ['Guides', 'guides', [['Install', 'install', [['On Linux', 'install/on-linux', []]]]]],
    ]);

    // update_page moves an existing page into a page the same batch inserts.
    const [guides] = await tree(ctx, cr.id);
    const moved = await batch(ctx, cr.id, [
      { operation: 'insert_page', ref: 'more', type: 'group', title: 'More', document: {} },
      { operation: 'update_page', page: guides?.pages?.[0]?.id, into: 'more' },
    ]);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(summary(await tree(ctx, cr.id))).toEqual([
      ['Guides', 'guides', []],
      ['More', 'more', [['Install', 'install', [['On Linux', 'install/on-linux', []]]]]],
    ]);
  });

  it('refuses a ref of a page the batch inserts later, or of nothing, saying which', async () => {
    const ctx = await h.space();
    const cr = await newChangeRequest(ctx);
    const later = await batch(ctx, cr.id, [
      { operation: 'insert_page', into: 'guides', title: 'Install', document: {} },
      { operation: 'insert_page', ref: 'guides', type: 'group', title: 'Guides', document: {} },
    ]);
    expect(later.status).toBe(400);
    expect(later.body.error.message).toBe(
      'body/changes/0/into: "guides" is the ref of a page inserted later in the batch (changes/1); insert it first',
    );
    const unknown = await batch(ctx, cr.id, [{ operation: 'insert_page', into: 'nowhere', title: 'x', document: {} }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('body/changes/0/into: page nowhere is not in the change request');
    // Nothing was applied.
    expect(await tree(ctx, cr.id)).toEqual([]);
  });
});

describe('page conditions', () => {
  it('are stored, read back on the page (as the official RevisionPage has them), removed with ""', async () => {
    const ctx = await h.space();
    const cr = await newChangeRequest(ctx);
    const condition = 'visitor.claims.plan === "pro"';
    const res = await batch(
      ctx,
      cr.id,
      [
        { operation: 'insert_page', ref: 'pro', title: 'Pro', condition, document: { markdown: 'x' } },
        { operation: 'insert_page', ref: 'group', type: 'group', title: 'Group', condition, document: {} },
        { operation: 'insert_page', title: 'Open', document: { markdown: 'y' } },
      ],
      '?compat=false',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [pro, group, open] = await tree(ctx, cr.id);
    expect([pro?.condition, group?.condition, open?.condition]).toEqual([condition, condition, undefined]);
    const one = await ctx.admin.client.get(`${ctx.base}/change-requests/${cr.id}/content/page/${pro?.id}`);
    expect(one.body.condition).toBe(condition);
    expect((await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const live = await ctx.admin.client.get(`${ctx.base}/content/page/${pro?.id}`);
    expect(live.body.condition).toBe(condition);

    const next = await newChangeRequest(ctx);
    const cleared = await batch(ctx, next.id, [
      { operation: 'update_page', page: pro?.id, condition: '' },
      { operation: 'update_page', page: open?.id, condition: 'visitor.claims.beta' },
    ]);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const after = await tree(ctx, next.id);
    expect(after.map((p) => p.condition)).toEqual([undefined, condition, 'visitor.claims.beta']);
  });

  it('refuses a condition that is not one expression (400 naming the change), and keeps nothing', async () => {
    const ctx = await h.space();
    const cr = await newChangeRequest(ctx);
    const res = await batch(ctx, cr.id, [
      { operation: 'insert_page', title: 'Fine', document: {} },
      { operation: 'insert_page', title: 'Broken', condition: 'visitor.claims.plan ===', document: {} },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^body\/changes\/1\/condition is not a valid expression: /);
    const twice = await batch(ctx, cr.id, [{ operation: 'insert_page', title: 'x', condition: 'a; b', document: {} }]);
    expect(twice.status).toBe(400);
    expect(await tree(ctx, cr.id)).toEqual([]);
  });
});
