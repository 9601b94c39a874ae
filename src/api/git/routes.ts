/**
 * Git Sync of a space (official operations): `POST …/git/import` and `…/git/export` queue a job
 * (204) that runs in the durable queue (src/git/sync.ts); `GET …/git/info` says what ran last, when
 * and how it ended (404 before any). Plus `GET …/export.zip` (Bindery extension): the same layout
 * as a download, for teams without a Git server.
 *
 * Who: export needs `edit` on the space; import into the live content replaces it, so it needs
 * `review` (as a merge does), and a `standalone` import (into a new change request) needs `edit`.
 */

import type { FastifyRequest } from 'fastify';
import { zipSync } from 'fflate';
import { Type } from 'typebox';
import { loadRevision } from '../../content/store.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, notFound } from '../../core/errors.js';
import { assertFetchableUrl, FetchError } from '../../core/fetch.js';
import { NoContent } from '../../core/schemas.js';
import { encryptSecret, secretsKey } from '../../core/secrets.js';
import { exportLayout } from '../../git/export-layout.js';
import { cleanDir } from '../../git/layout.js';
import { findGitSync, presentGitSync, redactUrl, startOperation } from '../../git/state.js';
import { EXPORT_JOB, type GitJobPayload, IMPORT_JOB, registerGitJobs, urlAad } from '../../git/sync.js';
import { enqueue } from '../../jobs/queue.js';
import { authorizeSpace } from '../../permissions/content.js';
import { ExportToGitRepository, GitSyncState, ImportGitRepository, ZipFile } from './schemas.js';

const tags = ['space-git'];
const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

type GitBody = {
  url: string;
  ref: string;
  repoTreeURL?: string;
  repoProjectDirectory?: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
};

/** The official provider enum has no "any Git server": GitLab when the host says so, else GitHub. */
function providerOf(body: GitBody, url: URL): 'github' | 'gitlab' {
  return body.gitInfo?.provider ?? (/gitlab/i.test(url.hostname) ? 'gitlab' : 'github');
}

export default async function gitRoutes(app: App) {
  registerGitJobs(app);

  /** Checks the URL before queueing (the job checks every connection again); messages never echo credentials. */
  async function checkUrl(raw: string): Promise<URL> {
    try {
      return await assertFetchableUrl(raw, app.config.fetchAllowPrivate);
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      const reason =
        error.code === 'FETCH_FORBIDDEN_ADDRESS'
          ? 'must be an http(s) URL of a public address'
          : 'is not a valid http(s) URL';
      throw badRequest(`body/url ${reason}: ${redactUrl(raw)}`);
    }
  }

  async function queue(request: FastifyRequest, direction: 'import' | 'export', body: GitBody) {
    const { user } = caller(request);
    const { spaceId } = request.params as { spaceId: string };
    const needed = direction === 'import' && !body.standalone ? 'review' : 'edit';
    const { row: space } = await authorizeSpace(app.db, user.id, spaceId, needed, `${direction} it with Git`);
    const url = await checkUrl(body.url);
    if (!/^(refs\/heads\/)?[A-Za-z0-9._/-]+$/.test(body.ref) || body.ref.includes('..')) {
      throw badRequest('body/ref must be a branch ref such as "refs/heads/main"');
    }
    const key = await secretsKey(app.db, app.config.secretsKey, request.log);
    const operationId = await app.db.transaction().execute(async (trx) => {
      const id = await startOperation(trx, {
        spaceId: space.id,
        direction,
        url: body.url,
        sealedUrl: (op) => encryptSecret(key, body.url, urlAad(space.id, op)),
        ref: body.ref,
        provider: providerOf(body, url),
        treeUrl: body.repoTreeURL ?? body.gitInfo?.url ?? null,
        projectDirectory: cleanDir(body.repoProjectDirectory) || null,
        options: {
          ...(body.commitMessage !== undefined ? { commitMessage: body.commitMessage } : {}),
          ...(body.force !== undefined ? { force: body.force } : {}),
          ...(body.standalone !== undefined ? { standalone: body.standalone } : {}),
          author: { name: user.display_name, email: user.email },
          userId: user.id,
        },
      });
      await enqueue(trx, direction === 'import' ? IMPORT_JOB : EXPORT_JOB, {
        spaceId: space.id,
        operationId: id,
      } satisfies GitJobPayload);
      return id;
    });
    app.jobs.wake();
    request.log.info({ spaceId: space.id, operationId, repository: redactUrl(body.url) }, `Git ${direction} queued`);
  }

  app.post(
    '/spaces/:spaceId/git/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importGitRepository',
        tags,
        summary: 'Pull content into a space from a Git repository (queued)',
        params: SpaceParams,
        body: ImportGitRepository,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await queue(request, 'import', request.body as GitBody);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/spaces/:spaceId/git/export',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'exportToGitRepository',
        tags,
        summary: "Push the space's live content to a Git repository (queued)",
        params: SpaceParams,
        body: ExportToGitRepository,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await queue(request, 'export', request.body as GitBody);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/spaces/:spaceId/git/info',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getSpaceGitInfo',
        tags,
        summary: 'The Git Sync state of a space: its repository and last operation',
        params: SpaceParams,
        response: { 200: GitSyncState },
      },
    },
    async (request) => {
      const { row: space } = await authorizeSpace(
        app.db,
        caller(request).user.id,
        request.params.spaceId,
        'read',
        'read it',
      );
      const row = await findGitSync(app.db, space.id);
      if (!row) throw notFound(`space ${space.id} has no Git repository set up`);
      return presentGitSync(row);
    },
  );

  app.get(
    '/spaces/:spaceId/export.zip',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'exportSpaceZip',
        tags,
        summary: 'The live content as a .zip in the Git Sync layout (Bindery extension)',
        description:
          'README-per-folder Markdown files, SUMMARY.md, .gitbook.yaml and .gitbook/assets/, as exportToGitRepository writes them.',
        params: SpaceParams,
        response: { 200: ZipFile },
      },
    },
    async (request, reply) => {
      const { row: space } = await authorizeSpace(
        app.db,
        caller(request).user.id,
        request.params.spaceId,
        'read',
        'read it',
      );
      const snapshot = await loadRevision(app.db, space, space.revision_id);
      if (!snapshot) throw new Error(`live revision ${space.revision_id} of space ${space.id} is missing`);
      const layout = await exportLayout(app.db, snapshot);
      const zip = Buffer.from(zipSync(Object.fromEntries(layout.files), { level: 6 }));
      return reply
        .type('application/zip')
        .header('content-length', zip.length)
        .header('content-disposition', `attachment; filename="${space.id}.zip"`)
        .send(zip);
    },
  );
}
