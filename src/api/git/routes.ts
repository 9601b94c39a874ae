/**
 * Git Sync of a space (official operations): `POST …/git/import` and `…/git/export` queue a job
 * (204) that runs in the durable queue (./sync.ts); `GET …/git/info` says what ran last, when
 * and how it ended (404 before any). Plus `GET …/export.zip` (Bindery extension): the same layout
 * as a download, for teams without a Git server.
 * The changes (and who may make them) are in ./service.ts.
 */

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { loadRevision } from '../../content/store.js';
import { secretsKey } from '../../core/secrets.js';
import { exportLayout } from '../../git/export-layout.js';
import { findGitSync, presentGitSync, redactUrl } from '../../git/state.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { NoContent } from '../../lib/schemas.js';
import { authorizeSpace } from '../../permissions/content.js';
import { ExportToGitRepository, GitSyncState, ImportGitRepository, ZipFile } from './schemas.js';
import { type GitOperationInput, startGitOperation } from './service.js';

const tags = ['space-git'];
const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1 }) });

export default async function gitRoutes(app: App) {
  async function queue(request: FastifyRequest, direction: 'import' | 'export', body: GitOperationInput) {
    const { spaceId } = request.params as { spaceId: string };
    const { operationId } = await startGitOperation(serviceContext(app, request), spaceId, direction, body, {
      allowPrivate: app.config.fetchAllowPrivate,
      secretsKey: () => secretsKey(app.db, app.config.secretsKey, request.log),
    });
    request.log.info({ spaceId, operationId, repository: redactUrl(body.url) }, `Git ${direction} queued`);
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
      await queue(request, 'import', request.body as GitOperationInput);
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
      await queue(request, 'export', request.body as GitOperationInput);
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
      const { zipSync } = await import('fflate'); // on first use: idle memory
      const zip = Buffer.from(zipSync(Object.fromEntries(layout.files), { level: 6 }));
      return reply
        .type('application/zip')
        .header('content-length', zip.length)
        .header('content-disposition', `attachment; filename="${space.id}.zip"`)
        .send(zip);
    },
  );
}
