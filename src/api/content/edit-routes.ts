/**
 * Changing a change request's content: the batch edit (`POST …/content`) and imports
 * (`…/content/import`, `…/content/page/:pageId/import`) of Markdown, HTML, .docx, .zip archives and
 * websites. The third-party sources of the official enum are accepted by the schema and refused
 * with 400 until they are supported. The changes go through ./service.ts.
 */
import type { FastifyReply } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Change } from '../../content/batch.js';
import type { App } from '../../http/app.js';
import { serviceContext } from '../../http/service-context.js';
import { changeRequestPath } from '../change-requests/present.js';
import { ChangeRequest } from '../change-requests/schemas.js';
import { ContentChangesBody, ContentChangesQuery, ContentUpdate, ImportBody, ImportResult } from './edit-schemas.js';
import { presentFile } from './present.js';
import { type ExpectedRevision, editChangeRequestContent, importIntoChangeRequest } from './service.js';

const tags = ['change-requests'];
/**
 * Serializes the answer by `schema`, one of the route's 200 union's: the handler knows which, where
 * the union's serializer (fast-json-stringify) picks between them by validating the answer against
 * each. Compiled once per route (Fastify keeps it by schema object).
 */
function serializeBy(reply: FastifyReply, schema: TSchema): void {
  reply.serializer(reply.compileSerializationSchema(schema as unknown as Record<string, unknown>, '200'));
  // Fastify names the type of what it serializes itself only.
  reply.type('application/json; charset=utf-8');
}
const CrParams = {
  spaceId: Type.String({ minLength: 1 }),
  changeRequestId: Type.String({ minLength: 1 }),
};

/**
 * `If-Match` on a batch edit names the change request's revision (`"<revision id>"`, several
 * separated by commas, or `*`); weak tags (`W/"…"`) never match, as in RFC 9110's strong comparison.
 */
function expectedRevision(value: string | string[] | undefined): ExpectedRevision {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  if (text.trim() === '*') return '*';
  return [...text.matchAll(/(W\/)?"([^"]*)"/g)].filter((m) => !m[1]).map((m) => m[2] as string);
}

export default async function contentEditRoutes(app: App) {
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequestContent',
        tags,
        params: Type.Object(CrParams),
        querystring: ContentChangesQuery,
        body: ContentChangesBody,
        response: { 200: Type.Union([ChangeRequest, ContentUpdate]) },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const edit = await editChangeRequestContent(
        serviceContext(app, request),
        spaceId,
        changeRequestId,
        request.body.changes as Change[],
        {
          allowPrivateFetch: app.config.fetchAllowPrivate,
          expectedRevision: expectedRevision(request.headers['if-match']),
        },
      );
      const { space, changeRequest, presented } = edit;
      if (request.query.compat !== false) {
        serializeBy(reply, ChangeRequest);
        return presented;
      }
      const pageRef = (id: string) => ({
        object: 'page' as const,
        id,
        urls: { location: app.urls.api(`${changeRequestPath(space.id, changeRequest.id)}/content/page/${id}`) },
      });
      const view = { urls: app.urls, space, snapshot: edit.revision, metadata: true };
      const body: Static<typeof ContentUpdate> = {
        changeRequest: presented,
        changes: edit.applied.changes.map((c) =>
          c.object === 'created_page' || c.object === 'updated_page' ? { ...c, page: pageRef(c.page) } : c,
        ),
        insertedFiles: edit.applied.insertedFiles.map((f) => presentFile(view, f)),
      };
      serializeBy(reply, ContentUpdate);
      return body;
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContentInChangeRequest',
        tags,
        params: Type.Object(CrParams),
        body: ImportBody,
        response: { 200: ImportResult },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return importIntoChangeRequest(serviceContext(app, request), spaceId, changeRequestId, request.body, {
        allowPrivate: app.config.fetchAllowPrivate,
      });
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContentInChangeRequestPageById',
        tags,
        params: Type.Object({ ...CrParams, pageId: Type.String({ minLength: 1 }) }),
        body: ImportBody,
        response: { 200: ImportResult },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const input = { ...request.body, pageId };
      return importIntoChangeRequest(serviceContext(app, request), spaceId, changeRequestId, input, {
        allowPrivate: app.config.fetchAllowPrivate,
      });
    },
  );
}
