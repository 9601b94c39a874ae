/**
 * Documents of a space and what surrounds its pages, as a renderer of published sites reads them:
 * - `getDocumentById`: a document body by its id (`documentId` of a page, `document` of a reusable
 *   content), among those of the space's live content and of its change requests still in progress
 *   (a document id is the hash of its body: another space's is a 404 unless this space has it too);
 * - the meta links of a page (`list…PageMetaLinks`, live, at a revision, in a change request): its
 *   canonical and alternate addresses. Bindery keeps none (a page has no canonical URL of its own, and
 *   translations are spaces of their own), so a page that exists answers `{alternates: []}`;
 * - computed content (`getComputedDocument`, `getComputedRevision`): Bindery has no computed content
 *   sources (OpenAPI-generated pages, translations, integrations), so a well-formed request is a 400
 *   naming the source type.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { findPage, flattenPages, loadRevision, type Snapshot } from '../../content/store.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { authorizeSpace } from '../../permissions/content.js';
import { authorizeChangeRequest } from '../change-requests/open.js';
import { presentPages } from '../content/present.js';
import { loadDocument } from '../revisions/present.js';
import { findRevision } from '../revisions/repo.js';
import { JsonDocument } from '../revisions/schemas.js';
import { computeDocument, computeRevisionPages } from './computed.js';

const Id = Type.String({ minLength: 1 });
const tags = ['space-content'];
const read = { scope: 'space:read' as const, cacheable: true };
const MetaLinks = Type.Object({
  canonical: Type.Optional(Type.Unknown()),
  alternates: Type.Optional(Type.Array(Type.Unknown())),
});
const DocumentSchemaQuery = Type.Object({
  schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')])),
});
const ComputedBody = Type.Object({
  source: Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
  seed: Type.String(),
});

function metaLinks(snapshot: Snapshot, pageId: string) {
  if (!findPage(snapshot.pages, pageId)) throw notFound(`page ${pageId} not found`);
  return { alternates: [] };
}

export default async function documentRoutes(app: App) {
  const space = (request: FastifyRequest) => {
    const { spaceId } = request.params as { spaceId: string };
    return authorizeSpace(app.db, caller(request).user.id, spaceId, 'read', 'read it');
  };
  const live = async (request: FastifyRequest) => {
    const { row } = await space(request);
    const snapshot = await loadRevision(app.db, row, row.revision_id);
    if (!snapshot) throw new Error(`live revision ${row.revision_id} of space ${row.id} is missing`);
    return { row, snapshot };
  };

  app.get(
    '/spaces/:spaceId/documents/:documentId',
    {
      config: read,
      schema: {
        operationId: 'getDocumentById',
        tags,
        params: Type.Object({ spaceId: Id, documentId: Id }),
        querystring: DocumentSchemaQuery,
        response: { 200: JsonDocument },
      },
    },
    async (request) => {
      const { row, snapshot } = await live(request);
      const { documentId } = request.params;
      const has = (s: Snapshot) =>
        flattenPages(s.pages).some((e) => e.page.document === documentId) ||
        s.reusableContents.some((r) => r.document === documentId);
      let found = has(snapshot);
      if (!found) {
        const inProgress = await app.db
          .selectFrom('change_requests')
          .select('revision_id')
          .where('space_id', '=', row.id)
          .where('status', 'in', ['open', 'draft'])
          .execute();
        for (const { revision_id } of inProgress) {
          const other = await loadRevision(app.db, row, revision_id);
          if (other && has(other)) {
            found = true;
            break;
          }
        }
      }
      if (!found || !/^[0-9a-f]{64}$/.test(documentId)) throw notFound(`document ${documentId} not found`);
      return loadDocument(app.db, documentId);
    },
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId/meta-links',
    {
      config: read,
      schema: {
        operationId: 'listSpacePageMetaLinks',
        tags,
        params: Type.Object({ spaceId: Id, pageId: Id }),
        response: { 200: MetaLinks },
      },
    },
    async (request) => metaLinks((await live(request)).snapshot, request.params.pageId),
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links',
    {
      config: read,
      schema: {
        operationId: 'listRevisionPageMetaLinks',
        tags,
        params: Type.Object({ spaceId: Id, revisionId: Id, pageId: Id }),
        response: { 200: MetaLinks },
      },
    },
    async (request) => {
      const { row } = await space(request);
      const snapshot = await findRevision(app.db, row, request.params.revisionId);
      if (!snapshot) throw notFound(`revision ${request.params.revisionId} not found in space ${row.id}`);
      return metaLinks(snapshot, request.params.pageId);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/meta-links',
    {
      config: read,
      schema: {
        operationId: 'listChangeRequestPageMetaLinks',
        tags: ['change-request-content'],
        params: Type.Object({ spaceId: Id, changeRequestId: Id, pageId: Id }),
        response: { 200: MetaLinks },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const { space: row, changeRequest } = await authorizeChangeRequest(
        app.db,
        caller(request).user.id,
        spaceId,
        changeRequestId,
        'read',
        'read it',
      );
      const snapshot = await loadRevision(app.db, row, changeRequest.revision_id);
      if (!snapshot) throw new Error(`revision ${changeRequest.revision_id} is missing`);
      return metaLinks(snapshot, pageId);
    },
  );

  app.post(
    '/spaces/:spaceId/content/computed/document',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getComputedDocument',
        tags,
        params: Type.Object({ spaceId: Id }),
        querystring: DocumentSchemaQuery,
        body: ComputedBody,
        response: { 200: JsonDocument },
      },
    },
    async (request) => {
      const { row } = await space(request);
      // `seed` fixes generated ids; the documents computed here have none to generate.
      return computeDocument(app.db, caller(request).user.id, row, request.body.source);
    },
  );

  app.post(
    '/spaces/:spaceId/content/computed/revision',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getComputedRevision',
        tags,
        params: Type.Object({ spaceId: Id }),
        body: ComputedBody,
        response: {
          200: Type.Object({
            pages: Type.Array(Type.Ref('RevisionPage')),
            files: Type.Array(Type.Unknown()),
            reusableContents: Type.Array(Type.Unknown()),
          }),
        },
      },
    },
    async (request) => {
      const { row } = await space(request);
      const { pages, documents } = await computeRevisionPages(
        app.db,
        caller(request).user.id,
        row,
        request.body.source,
        request.body.seed,
      );
      // Shown as pages of the space are (nothing of it is stored: no revision, no Git metadata).
      const snapshot: Snapshot = {
        id: 'computed',
        spaceId: row.id,
        parents: [],
        type: 'edits',
        createdAt: row.updated_at,
        mergedFrom: null,
        pages,
        files: [],
        reusableContents: [],
      };
      const view = { urls: app.urls, space: row, snapshot, appBase: `/s/${row.id}`, metadata: false };
      return { pages: presentPages(view, { documents, oids: null }), files: [], reusableContents: [] };
    },
  );
}
