/** Change requests for the API tests: opening one in a space, applying a batch of changes to it. */
import { expect } from 'vitest';
import type { SpaceWorld } from './app.js';

/** Opens a change request in the space (expects 201); returns its id and number. */
export async function newChangeRequest(ctx: SpaceWorld, subject = 'Edit') {
  const res = await ctx.admin.client.post(`${ctx.base}/change-requests`, { subject });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

/** Posts `changes` to the change request's content (`query`, e.g. `?compat=false`); returns the answer. */
export async function batch(ctx: SpaceWorld, cr: string, changes: unknown[], query = '') {
  return ctx.admin.client.post(`${ctx.base}/change-requests/${cr}/content${query}`, { changes });
}

/** Opens a change request with `changes` and merges it: the space's live content then has them. */
export async function mergeChanges(ctx: SpaceWorld, subject: string, changes: unknown[]) {
  const cr = await newChangeRequest(ctx, subject);
  const changed = await batch(ctx, cr.id, changes);
  expect(changed.status, JSON.stringify(changed.body)).toBeLessThan(300);
  const merged = await ctx.admin.client.post(`${ctx.base}/change-requests/${cr.id}/merge`, {});
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
}
