/**
 * Git Sync for the API tests: a harness whose job worker runs the Git operations and may reach
 * loopback, with a real Git server there (git-server.ts); waiting for an operation to end; reading
 * a space's live page tree.
 */
import { expect } from 'vitest';
import { createHarness, type Harness, type SpaceWorld } from './app.js';
import { type GitServer, startGitServer } from './git-server.js';

export interface GitSyncWorld {
  /** Runs Git jobs (2 at a time, polled every 50 ms) and may fetch from private addresses. */
  h: Harness;
  server: GitServer;
  close(): Promise<void>;
}

/** Starts the harness and the Git server (basic auth with `credentials`, else the server's default ones). */
export async function gitSyncWorld(credentials?: { user: string; password: string }): Promise<GitSyncWorld> {
  const h = await createHarness({ fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50 });
  const server = await startGitServer(credentials);
  return {
    h,
    server,
    async close() {
      await server.close();
      await h.close();
    },
  };
}

/** Waits for the space's last Git operation to end; returns its state. */
export async function settled(ctx: SpaceWorld, spaceId = ctx.spaceId) {
  for (let i = 0; i < 400; i++) {
    const info = await ctx.admin.client.get(`/v1/spaces/${spaceId}/git/info`);
    if (info.status === 200 && info.body.operation.state !== 'running') return info.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the Git operation did not end');
}

export type Page = { id: string; title: string; path?: string; type: string; pages?: Page[]; href?: string };

/** The tree as [type, title, path or href, children], to compare with toEqual. */
export function outline(pages: Page[]): unknown[] {
  return pages.map((p) => [p.type, p.title, p.path ?? p.href ?? '', outline(p.pages ?? [])]);
}

/** Every page of the tree, depth first. */
export function flat(pages: Page[], out: Page[] = []): Page[] {
  for (const page of pages) {
    out.push(page);
    flat(page.pages ?? [], out);
  }
  return out;
}

export async function livePages(ctx: SpaceWorld, spaceId = ctx.spaceId): Promise<Page[]> {
  const res = await ctx.admin.client.get(`/v1/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  return res.body.pages;
}
