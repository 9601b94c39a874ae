/**
 * The revision history for the API tests: a space of its own, change requests applied and merged
 * in one step, and a space with two merges (pages, files and a reusable content, then edits, a
 * move, a deletion and a rename) whose revisions the tests read.
 */
import { expect } from 'vitest';
import type { Harness, SpaceWorld } from './app.js';
import { PNG } from './fixtures.js';

type Ctx = SpaceWorld;

/** A new organization with one space, titled History. */
export const newSpace = (h: Harness): Promise<Ctx> => h.space('History');

/** Applies `changes` in a new change request and merges it; returns the batch answer and the merge revision. */
export async function merged(ctx: Ctx, changes: unknown[]) {
  const cr = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject: 'Edit' });
  expect(cr.status).toBe(201);
  const edit = await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.body.id}/content?compat=false`, {
    changes,
  });
  expect(edit.status).toBe(200);
  const merge = await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.body.id}/merge`);
  expect(merge.status).toBe(200);
  return { edit: edit.body, revision: merge.body.revision as string, changeRequest: cr.body as { id: string } };
}

export interface History {
  ctx: Ctx;
  /** The first merge: pages Guide, Setup, Extra; files pixel.png and notes.txt; reusable Snippet. */
  first: string;
  /** The second merge: Guide renamed and rewritten, Extra moved under Guide, Setup deleted, Snippet renamed. */
  second: string;
  secondCr: string;
  guide: string;
  setup: string;
  extra: string;
  pixel: string;
  notes: string;
  snippet: string;
}

/** Builds the two merges of `History` in a new space. */
export async function history(h: Harness): Promise<History> {
  const ctx = await newSpace(h);
  const one = await merged(ctx, [
    {
      operation: 'insert_page',
      ref: 'guide',
      title: 'Guide',
      document: { markdown: 'See [setup](./setup.md) and ![pixel](./pixel.png).' },
    },
    { operation: 'insert_page', ref: 'setup', title: 'Setup', emoji: '1f680', document: { markdown: 'Install it.' } },
    { operation: 'insert_page', title: 'Extra', document: { markdown: 'More.' } },
    {
      operation: 'insert_files',
      files: [
        { ref: 'pixel.png', name: 'pixel.png', contentType: 'image/png', base64: PNG.toString('base64') },
        { ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') },
      ],
    },
    { operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Shared text.' } },
  ]);
  const [guide, setup, extra] = one.edit.changes.slice(0, 3).map((c: { page: { id: string } }) => c.page.id);
  const snippet = one.edit.changes[3].reusableContent;
  const [pixel, notes] = one.edit.insertedFiles.map((f: { id: string }) => f.id);
  const two = await merged(ctx, [
    { operation: 'update_page', page: guide, title: 'Guide v2', document: { markdown: 'Rewritten.' } },
    { operation: 'update_page', page: extra, into: guide },
    { operation: 'delete_page', page: setup },
    { operation: 'update_reusable_content', reusableContent: snippet, title: 'Shared snippet' },
  ]);
  return {
    ctx,
    first: one.revision,
    second: two.revision,
    secondCr: two.changeRequest.id,
    guide,
    setup,
    extra,
    pixel,
    notes,
    snippet,
  };
}
