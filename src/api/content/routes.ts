/**
 * Reading the live content of a space (`/spaces/:spaceId/content…`), plus file downloads. Anyone
 * who can read the space reads its content. The same reads of a change request's content are in
 * ./change-request-routes.ts; both use the handlers of ./reads.ts.
 */
import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { registerDownload } from './download.js';
import { contentReads } from './reads.js';
import {
  ContentQuery,
  FileList,
  FilesQuery,
  PageQueryFormat,
  PagesList,
  ReusableContent,
  Revision,
  RevisionFileSchema,
} from './schemas.js';

const tags = ['content'];
/** Every read here is a function of the revision read, the caller and the URL: cacheable. */
const config = { scope: 'space:read', cacheable: true } as const;
const Id = Type.String({ minLength: 1 });
const PagePath = Type.String({ description: 'The page path: nested slugs joined by /' });

export default async function contentRoutes(app: App) {
  const reads = contentReads(app);
  const { live } = reads;

  app.get(
    '/spaces/:spaceId/content',
    {
      config,
      schema: {
        operationId: 'getCurrentRevision',
        tags,
        params: Type.Object({ spaceId: Id }),
        querystring: ContentQuery,
        response: { 200: Revision },
      },
    },
    async (request) => reads.revision(await live(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/content/pages',
    {
      config,
      schema: {
        operationId: 'listPages',
        tags,
        params: Type.Object({ spaceId: Id }),
        querystring: ContentQuery,
        response: { 200: PagesList },
      },
    },
    async (request) => reads.pages(await live(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/content/files',
    {
      config,
      schema: {
        operationId: 'listFiles',
        tags,
        params: Type.Object({ spaceId: Id }),
        querystring: FilesQuery,
        response: { 200: FileList },
      },
    },
    async (request) => reads.files(await live(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/content/files/:fileId',
    {
      config,
      schema: {
        operationId: 'getFileById',
        tags,
        params: Type.Object({ spaceId: Id, fileId: Id }),
        querystring: ContentQuery,
        response: { 200: RevisionFileSchema },
      },
    },
    async (request) => reads.file(await live(request), request.params.fileId, request.query),
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId',
    {
      config,
      schema: {
        operationId: 'getPageById',
        tags,
        params: Type.Object({ spaceId: Id, pageId: Id }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.page(await live(request), request.params.pageId, request.query),
  );

  app.get(
    '/spaces/:spaceId/content/path/:pagePath',
    {
      config,
      schema: {
        operationId: 'getPageByPath',
        tags,
        params: Type.Object({ spaceId: Id, pagePath: PagePath }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.pageByPath(await live(request), request.params.pagePath, request.query),
  );

  // Nested paths (`a/b/c`) reach getPageByPath through this hidden wildcard route (a path
  // parameter cannot span segments).
  app.get(
    '/spaces/:spaceId/content/path/*',
    {
      config,
      schema: {
        hide: true,
        tags,
        params: Type.Object({ spaceId: Id, '*': PagePath }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.pageByPath(await live(request), request.params['*'] ?? '', request.query),
  );

  app.get(
    '/spaces/:spaceId/content/reusable-contents/:reusableContentId',
    {
      config,
      schema: {
        operationId: 'getReusableContentById',
        tags,
        params: Type.Object({ spaceId: Id, reusableContentId: Id }),
        querystring: ContentQuery,
        response: { 200: ReusableContent },
      },
    },
    async (request) => reads.reusableContent(await live(request), request.params.reusableContentId, request.query),
  );

  registerDownload(app);
}
