/**
 * Imports into a change request (`…/content/import` and `…/content/page/:pageId/import`): editors
 * of the space import Markdown, HTML, .docx, .zip archives and websites; the result is one new
 * revision of the change request. The third-party sources of the official enum are accepted by the
 * schema and refused with 400 until they are supported.
 */
import { Type } from 'typebox';
import { runImport } from '../../content/importers/index.js';
import { writeRevision } from '../../content/store.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { ImportBody, ImportResult } from '../content/schemas.js';
import { authorizeChangeRequest } from './access.js';
import { advanceChangeRequest } from './repo.js';
import { changeRequestSnapshot, requireEditable } from './routes.js';

const tags = ['change-requests'];
const Params = {
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1 }),
};

export default async function importRoutes(app: App) {
  async function handle(
    userId: string,
    params: { spaceId: string; changeRequestId: string; pageId?: string },
    body: { source: string; url: string },
  ) {
    const { space, changeRequest } = await authorizeChangeRequest(
      app.db,
      userId,
      params.spaceId,
      params.changeRequestId,
      'edit',
      'import content',
    );
    requireEditable(changeRequest);
    const base = await changeRequestSnapshot(app, space, changeRequest);
    // Sources are fetched and converted before the (short) transaction that records the revision.
    const outcome = await runImport(
      app.db,
      base,
      { source: body.source, url: body.url, pageId: params.pageId },
      { allowPrivate: app.config.fetchAllowPrivate },
    );
    const revision = await app.db.transaction().execute(async (trx) => {
      const written = await writeRevision(trx, {
        spaceId: space.id,
        parents: [base.id],
        type: 'edits',
        pages: outcome.pages,
        files: outcome.files,
        reusableContents: base.reusableContents,
        createdBy: userId,
      });
      await advanceChangeRequest(trx, changeRequest.id, base.id, written.id);
      return written;
    });
    return { revision: revision.id, importedResources: outcome.imported, totalResources: outcome.total };
  }

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContentInChangeRequest',
        tags,
        params: Type.Object(Params),
        body: ImportBody,
        response: { 200: ImportResult },
      },
    },
    async (request) => handle(caller(request).user.id, request.params, request.body),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContentInChangeRequestPageById',
        tags,
        params: Type.Object({ ...Params, pageId: Type.String({ minLength: 1 }) }),
        body: ImportBody,
        response: { 200: ImportResult },
      },
    },
    async (request) => handle(caller(request).user.id, request.params, request.body),
  );
}
