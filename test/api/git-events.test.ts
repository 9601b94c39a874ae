/**
 * Git Sync records what it does: `space.gitsync.started` by the user who starts an import or an
 * export, and, by the system once the job has run, the content it changed (`space.content.updated`)
 * and `space.gitsync.completed` with the outcome, in the audit log of the space's organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, recorded } from '../helpers/audit.js';
import { type GitSyncWorld, gitSyncWorld, settled } from '../helpers/git-sync.js';

let git: GitSyncWorld | undefined;
beforeAll(async () => {
  git = await gitSyncWorld();
}, 180_000);
afterAll(async () => {
  await git?.close();
});

describe('Git Sync events', () => {
  it('an import records started (the user), content updated and completed (the system)', async () => {
    const { h, server } = git as GitSyncWorld;
    server.createRepo('events', { 'README.md': '# Home\n\nHello.\n' });
    const ctx = await h.space();
    const res = await ctx.admin.client.post(`${ctx.base}/git/import`, { url: server.url('events'), ref: 'main' });
    expect(res.status).toBe(204);
    const info = await settled(ctx);
    expect(info.operation.state).toBe('success');

    const target = { type: 'space', id: ctx.spaceId };
    const started = await recorded(ctx.admin.client, ctx.orgId, 'space.gitsync.started', {
      actor: ctx.admin.user.id,
      target,
    });
    expect(started.payload.object).toMatchObject({ object: 'git-sync', operation: { state: 'running' } });
    // The URL as getGitInfo shows it: never with credentials.
    expect(JSON.stringify(started.payload)).not.toContain('@');
    const completed = await recorded(ctx.admin.client, ctx.orgId, 'space.gitsync.completed', {
      actor: 'system',
      target,
      source: 'workflow',
    });
    expect(completed.payload.object).toEqual({ object: 'git-sync', ...info });
    const content = await auditEvents(ctx.admin.client, ctx.orgId, 'space.content.updated');
    expect(content.map((e) => [e.actor.id, e.target.id])).toEqual([['system', ctx.spaceId]]);
  });
});
