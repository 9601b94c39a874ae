/**
 * Contract test of Git Sync: importGitRepository, exportToGitRepository and getSpaceGitInfo driven
 * through the official `@gitbook/api` client against a listening server and a real Git server on
 * loopback; request bodies checked against the official request schemas, responses (204, the
 * GitSyncState, the Space with `gitSync`, the revision with `git`) against the official document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { type ContractServer, startContractServer } from './server.js';
import { allowed, expectApiError, expectConforms, expectOperationsCovered } from './validate.js';

const GIT_OPERATIONS = ['importGitRepository', 'exportToGitRepository', 'getSpaceGitInfo'] as const;

let server: ContractServer;
let git: GitServer;
beforeAll(async () => {
  server = await startContractServer({ fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50 });
  git = await startGitServer();
}, 180_000);
afterAll(async () => {
  await git?.close();
  await server?.close();
});

describe('Git Sync through the official client', () => {
  it('imports, exports and reports the state in the official shapes', async () => {
    git.createRepo('contract', {
      'README.md': '# Hello\n\nSee [next](next.md).\n',
      'next.md': '# Next\n\nBack [home](README.md).\n',
    });
    const { id: orgId, admin } = await server.harness.org();
    const api = server.client(admin.token);
    const space = (await api.orgs.createSpace(orgId, { title: 'Git' })).data;

    await expectApiError('getSpaceGitInfo', api.spaces.getSpaceGitInfo(space.id), 404);
    const op = 'importGitRepository';
    // The host (loopback) names no provider: the caller does, as for GitHub Enterprise on a host of
    // its own. Without it the state says `git` (a plain Git server), outside the official enum.
    const gitInfo = { provider: 'github' as const, url: 'https://github.example.com/acme/contract' };
    await expectConforms(
      op,
      api.spaces.importGitRepository(
        space.id,
        allowed(op, { url: git.url('contract'), ref: 'refs/heads/main', gitInfo }),
      ),
      204,
    );
    let info = (await expectConforms('getSpaceGitInfo', api.spaces.getSpaceGitInfo(space.id), 200)).data;
    for (let i = 0; i < 400 && info.operation?.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      info = (await expectConforms('getSpaceGitInfo', api.spaces.getSpaceGitInfo(space.id), 200)).data;
    }
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(info.installationProvider).toBe('github');
    const spaceRead = await expectConforms('getSpaceById', api.spaces.getSpaceById(space.id), 200);
    expect(spaceRead.data.gitSync?.operation?.state).toBe('success');
    const revision = await expectConforms('getCurrentRevision', api.spaces.getCurrentRevision(space.id), 200);
    expect(revision.data.git?.oid).toBe(git.head('contract'));
    expect(revision.data.pages.map((p) => p.title)).toEqual(['Hello', 'Next']);

    const ex = 'exportToGitRepository';
    git.createRepo('contract-out');
    await expectConforms(
      ex,
      api.spaces.exportToGitRepository(
        space.id,
        allowed(ex, {
          url: git.url('contract-out'),
          ref: 'refs/heads/main',
          commitMessage: 'From the contract test',
          gitInfo,
        }),
      ),
      204,
    );
    for (let i = 0; i < 400; i++) {
      info = (await expectConforms('getSpaceGitInfo', api.spaces.getSpaceGitInfo(space.id), 200)).data;
      if (info.operation?.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(git.log('contract-out')).toEqual(['From the contract test']);
    expect([...git.readTree('contract-out').keys()].sort()).toEqual(
      ['.gitbook.yaml', 'SUMMARY.md', 'hello.md', 'next.md'].sort(),
    );
  });

  it('covers every Git operation', () => {
    expectOperationsCovered(GIT_OPERATIONS);
  });
});
