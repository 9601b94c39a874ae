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
