/**
 * What a change request changes (`GET …/change-requests/:changeRequestId/changes`, the review
 * screen's list): its content against its base (the live revision it started from, or was last
 * brought up to date with), as the semantic changes of a revision are presented. Readers of the
 * space read it.
 */
import { Type } from 'typebox';
import { semanticChanges } from '../../content/semantic-changes.js';
import { loadRevision } from '../../content/store.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { authorizeChangeRequest, changeRequestSnapshot } from '../change-requests/open.js';
import { baseRevisionId } from '../change-requests/present.js';
import { presentSemanticChanges, revisionView } from './present.js';
import { ChangeRequestChangesQuery, SemanticChanges } from './schemas.js';

export default async function changeRequestChangesRoutes(app: App) {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      config: { scope: 'space:read', cacheable: true },
      schema: {
        operationId: 'getChangeRequestChanges',
        description:
          'Pages (created, edited, moved to another parent, deleted), files and reusable contents the change request changes against the live revision it started from (or was last brought up to date with).',
        tags: ['change-requests'],
        params: Type.Object({
          spaceId: Type.String({ minLength: 1 }),
          changeRequestId: Type.String({ minLength: 1 }),
        }),
        querystring: ChangeRequestChangesQuery,
        response: { 200: SemanticChanges },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { space, changeRequest } = await authorizeChangeRequest(
        app.db,
        caller(request).user.id,
        spaceId,
        changeRequestId,
        'read',
        'read it',
      );
      const [base, own] = await Promise.all([
        loadRevision(app.db, space, baseRevisionId(changeRequest)),
        changeRequestSnapshot(app.db, space, changeRequest),
      ]);
      const before = base ?? { pages: [], files: [], reusableContents: [] };
      const changes = semanticChanges(before, own);
      const after = revisionView(app, space, own, false, undefined);
      const beforeView = base ? revisionView(app, space, base, false, undefined) : undefined;
      return presentSemanticChanges(after, beforeView, changes, request.query.limit ?? 10, undefined);
    },
  );
}
