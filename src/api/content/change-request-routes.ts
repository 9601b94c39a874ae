/**
 * Reading a change request's content (`/spaces/:spaceId/change-requests/:changeRequestId/content…`):
 * the reads of the live content (./routes.ts) plus links and backlinks. Anyone who can read the
 * space reads it.
 */
import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { ListQuery } from '../../lib/paging.js';
import { contentReads } from './reads.js';
import {
  BacklinksList,
  ContentQuery,
  FileList,
  FilesQuery,
  LinksList,
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
const CrParams = { spaceId: Id, changeRequestId: Id };

export default async function changeRequestContentRoutes(app: App) {
  const reads = contentReads(app);
  const { inChangeRequest } = reads;

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config,
      schema: {
        operationId: 'getRevisionOfChangeRequestById',
        tags,
        params: Type.Object(CrParams),
        querystring: ContentQuery,
        response: { 200: Revision },
      },
    },
    async (request) => reads.revision(await inChangeRequest(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/pages',
    {
      config,
      schema: {
        operationId: 'listPagesInChangeRequest',
        tags,
        params: Type.Object(CrParams),
        querystring: ContentQuery,
        response: { 200: PagesList },
      },
    },
    async (request) => reads.pages(await inChangeRequest(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files',
    {
      config,
      schema: {
        operationId: 'listFilesInChangeRequestById',
        tags,
        params: Type.Object(CrParams),
        querystring: FilesQuery,
        response: { 200: FileList },
      },
    },
    async (request) => reads.files(await inChangeRequest(request), request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId',
    {
      config,
      schema: {
        operationId: 'getFileInChangeRequestById',
        tags,
        params: Type.Object({ ...CrParams, fileId: Id }),
        querystring: ContentQuery,
        response: { 200: RevisionFileSchema },
      },
    },
    async (request) => reads.file(await inChangeRequest(request), request.params.fileId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
    {
      config,
      schema: {
        operationId: 'listChangeRequestFileBacklinks',
        tags,
        params: Type.Object({ ...CrParams, fileId: Id }),
        querystring: ListQuery,
        response: { 200: BacklinksList },
      },
    },
    async (request) => reads.fileBacklinks(await inChangeRequest(request), request.params.fileId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId',
    {
      config,
      schema: {
        operationId: 'getPageInChangeRequestById',
        tags,
        params: Type.Object({ ...CrParams, pageId: Id }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.page(await inChangeRequest(request), request.params.pageId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    {
      config,
      schema: {
        operationId: 'listPageLinksInChangeRequest',
        tags,
        params: Type.Object({ ...CrParams, pageId: Id }),
        querystring: ListQuery,
        response: { 200: LinksList },
      },
    },
    async (request) => reads.pageLinks(await inChangeRequest(request), request.params.pageId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/backlinks',
    {
      config,
      schema: {
        operationId: 'listChangeRequestPageBacklinks',
        tags,
        params: Type.Object({ ...CrParams, pageId: Id }),
        querystring: ListQuery,
        response: { 200: BacklinksList },
      },
    },
    async (request) => reads.pageBacklinks(await inChangeRequest(request), request.params.pageId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/path/:pagePath',
    {
      config,
      schema: {
        operationId: 'getPageInChangeRequestByPath',
        tags,
        params: Type.Object({ ...CrParams, pagePath: PagePath }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.pageByPath(await inChangeRequest(request), request.params.pagePath, request.query),
  );

  // Nested paths (`a/b/c`) reach getPageInChangeRequestByPath through this hidden wildcard route.
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/path/*',
    {
      config,
      schema: {
        hide: true,
        tags,
        params: Type.Object({ ...CrParams, '*': PagePath }),
        querystring: PageQueryFormat,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => reads.pageByPath(await inChangeRequest(request), request.params['*'] ?? '', request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId',
    {
      config,
      schema: {
        operationId: 'getReusableContentInChangeRequestById',
        tags,
        params: Type.Object({ ...CrParams, reusableContentId: Id }),
        querystring: ContentQuery,
        response: { 200: ReusableContent },
      },
    },
    async (request) =>
      reads.reusableContent(await inChangeRequest(request), request.params.reusableContentId, request.query),
  );
}
