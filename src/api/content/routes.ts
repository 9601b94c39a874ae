/**
 * Reading content: the same operations on the live revision (`/spaces/:spaceId/content…`) and on a
 * change request (`/spaces/:spaceId/change-requests/:changeRequestId/content…`), plus file
 * downloads. Anyone who can read the space reads its content.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { findPage, flattenPages, loadRevision, type Snapshot } from '../../content/store.js';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { notFound } from '../../core/errors.js';
import { paginateArray } from '../../core/paging.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { findRevisionGit } from '../../git/state.js';
import { authorizeSpace } from '../../permissions/content.js';
import { authorizeChangeRequest } from '../change-requests/access.js';
import { type ChangeRequestObject, presentChangeRequest } from '../change-requests/present.js';
import { findChangeRequest } from '../change-requests/repo.js';
import { registerDownload } from './download.js';
import { backlinks, checkedLinks, linkStats } from './links.js';
import {
  type ContentView,
  presentFile,
  presentPage,
  presentPages,
  presentReusableContent,
  presentRevision,
} from './present.js';
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

interface Resolved {
  space: SpaceRow;
  snapshot: Snapshot;
  changeRequest: ChangeRequestRow | null;
  appBase: string;
}

type Params = { spaceId: string; changeRequestId?: string };

const SpaceParams = { spaceId: Type.String({ minLength: 1 }) };
const CrParams = { ...SpaceParams, changeRequestId: Type.String({ minLength: 1 }) };

/** The two places content is read from, with their operationIds (null: not offered there). */
const TARGETS = [
  {
    prefix: '/spaces/:spaceId/content',
    params: SpaceParams,
    ids: {
      revision: 'getCurrentRevision',
      pages: 'listPages',
      files: 'listFiles',
      file: 'getFileById',
      fileBacklinks: null,
      page: 'getPageById',
      links: null,
      backlinks: null,
      path: 'getPageByPath',
      reusable: 'getReusableContentById',
    },
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId/content',
    params: CrParams,
    ids: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
      fileBacklinks: 'listChangeRequestFileBacklinks',
      page: 'getPageInChangeRequestById',
      links: 'listPageLinksInChangeRequest',
      backlinks: 'listChangeRequestPageBacklinks',
      path: 'getPageInChangeRequestByPath',
      reusable: 'getReusableContentInChangeRequestById',
    },
  },
] as const;

export default async function contentRoutes(app: App) {
  async function resolve(request: FastifyRequest): Promise<Resolved> {
    const { user } = caller(request);
    const params = request.params as Params;
    if (params.changeRequestId !== undefined) {
      const { space, changeRequest } = await authorizeChangeRequest(
        app.db,
        user.id,
        params.spaceId,
        params.changeRequestId,
        'read',
        'read it',
      );
      const snapshot = await loadRevision(app.db, space, changeRequest.revision_id);
      if (!snapshot) throw new Error(`revision ${changeRequest.revision_id} is missing`);
      return { space, snapshot, changeRequest, appBase: `/s/${space.id}/~/changes/${changeRequest.number}` };
    }
    const { row: space } = await authorizeSpace(app.db, user.id, params.spaceId, 'read', 'read it');
    const snapshot = await loadRevision(app.db, space, space.revision_id);
    if (!snapshot) throw new Error(`live revision ${space.revision_id} of space ${space.id} is missing`);
    return { space, snapshot, changeRequest: null, appBase: `/s/${space.id}` };
  }

  const view = async (r: Resolved, metadata: boolean | undefined): Promise<ContentView> => ({
    db: app.db,
    urls: app.urls,
    space: r.space,
    snapshot: r.snapshot,
    appBase: r.appBase,
    metadata: metadata !== false,
    // Git metadata recorded by an export or import of this very revision, when asked for.
    ...(metadata !== false ? { git: await findRevisionGit(app.db, r.snapshot.id) } : {}),
  });

  function pageOf(r: Resolved, pageId: string) {
    const entry = findPage(r.snapshot.pages, pageId);
    if (!entry) throw notFound(`page ${pageId} not found`);
    return entry;
  }

  for (const target of TARGETS) {
    const tags = ['content'];
    const { ids, prefix } = target;
    const params = Type.Object(target.params);

    app.get(
      prefix,
      {
        config: { scope: 'space:read' },
        schema: { operationId: ids.revision, tags, params, querystring: ContentQuery, response: { 200: Revision } },
      },
      async (request) => {
        const r = await resolve(request);
        let mergedFrom: ChangeRequestObject | undefined;
        if (r.snapshot.mergedFrom) {
          const cr = await findChangeRequest(app.db, r.space.id, r.snapshot.mergedFrom);
          if (cr) mergedFrom = await presentChangeRequest(app.db, cr, r.space, app.urls);
        }
        return presentRevision(await view(r, request.query.metadata), mergedFrom);
      },
    );

    app.get(
      `${prefix}/pages`,
      {
        config: { scope: 'space:read' },
        schema: { operationId: ids.pages, tags, params, querystring: ContentQuery, response: { 200: PagesList } },
      },
      async (request) => {
        const r = await resolve(request);
        return { pages: await presentPages(await view(r, request.query.metadata)) };
      },
    );

    app.get(
      `${prefix}/files`,
      {
        config: { scope: 'space:read' },
        schema: { operationId: ids.files, tags, params, querystring: FilesQuery, response: { 200: FileList } },
      },
      async (request) => {
        const r = await resolve(request);
        const page = paginateArray(r.snapshot.files, (f) => f.id, request.query);
        const v = await view(r, request.query.metadata);
        return { ...page, items: page.items.map((f) => presentFile(v, f)) };
      },
    );

    const FileParams = Type.Object({ ...target.params, fileId: Type.String({ minLength: 1 }) });
    const fileOf = (r: Resolved, fileId: string) => {
      const file = r.snapshot.files.find((f) => f.id === fileId);
      if (!file) throw notFound(`file ${fileId} not found`);
      return file;
    };

    app.get(
      `${prefix}/files/:fileId`,
      {
        config: { scope: 'space:read' },
        schema: {
          operationId: ids.file,
          tags,
          params: FileParams,
          querystring: ContentQuery,
          response: { 200: RevisionFileSchema },
        },
      },
      async (request) => {
        const r = await resolve(request);
        return presentFile(await view(r, request.query.metadata), fileOf(r, request.params.fileId));
      },
    );

    const PageParams = Type.Object({ ...target.params, pageId: Type.String({ minLength: 1 }) });
    const ListQuery = Type.Object({
      page: Type.Optional(Type.String()),
      limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    });

    if (ids.fileBacklinks) {
      app.get(
        `${prefix}/files/:fileId/backlinks`,
        {
          config: { scope: 'space:read' },
          schema: {
            operationId: ids.fileBacklinks,
            tags,
            params: FileParams,
            querystring: ListQuery,
            response: { 200: BacklinksList },
          },
        },
        async (request) => {
          const r = await resolve(request);
          fileOf(r, request.params.fileId);
          const pages = await backlinks(app.db, r.snapshot, { file: request.params.fileId });
          const page = paginateArray(pages, (e) => e.page.id, request.query);
          return {
            ...page,
            items: await presentPages(
              await view(r, true),
              page.items.map((e) => e.page),
            ),
          };
        },
      );
    }

    app.get(
      `${prefix}/page/:pageId`,
      {
        config: { scope: 'space:read' },
        schema: {
          operationId: ids.page,
          tags,
          params: PageParams,
          querystring: PageQueryFormat,
          response: { 200: Type.Ref('RevisionPage') },
        },
      },
      async (request) => {
        const r = await resolve(request);
        return presentPage(
          await view(r, request.query.metadata),
          pageOf(r, request.params.pageId),
          request.query.format ?? 'document',
        );
      },
    );

    if (ids.links) {
      app.get(
        `${prefix}/page/:pageId/links`,
        {
          config: { scope: 'space:read' },
          schema: {
            operationId: ids.links,
            tags,
            params: PageParams,
            querystring: ListQuery,
            response: { 200: LinksList },
          },
        },
        async (request) => {
          const r = await resolve(request);
          const { page } = pageOf(r, request.params.pageId);
          const links = await checkedLinks(app.db, r.snapshot, page.id);
          const initial = r.changeRequest
            ? ((await loadRevision(app.db, r.space, r.changeRequest.revision_initial)) ?? null)
            : null;
          const stats = await linkStats(app.db, links, initial, page.id);
          const indexed = links.map((link, index) => ({ ...link, index }));
          const result = paginateArray(indexed, (l) => l.index, request.query);
          return {
            ...result,
            stats,
            items: result.items.map((l) => ({
              target: l.ref,
              text: l.text,
              status: l.broken ? ('broken' as const) : ('ok' as const),
            })),
          };
        },
      );
    }

    if (ids.backlinks) {
      app.get(
        `${prefix}/page/:pageId/backlinks`,
        {
          config: { scope: 'space:read' },
          schema: {
            operationId: ids.backlinks,
            tags,
            params: PageParams,
            querystring: ListQuery,
            response: { 200: BacklinksList },
          },
        },
        async (request) => {
          const r = await resolve(request);
          pageOf(r, request.params.pageId);
          const pages = await backlinks(app.db, r.snapshot, { page: request.params.pageId });
          const page = paginateArray(pages, (e) => e.page.id, request.query);
          return {
            ...page,
            items: await presentPages(
              await view(r, true),
              page.items.map((e) => e.page),
            ),
          };
        },
      );
    }

    // `{pagePath}` is documented; nested paths (`a/b/c`) reach the same handler through the hidden
    // wildcard route (a path parameter cannot span segments).
    const pathRoute = (url: string, hidden: boolean, param: string) =>
      app.get(
        url,
        {
          config: { scope: 'space:read' },
          schema: {
            ...(hidden ? { hide: true } : { operationId: ids.path }),
            tags,
            params: Type.Object({
              ...target.params,
              [param]: Type.String({ description: 'The page path: nested slugs joined by /' }),
            }),
            querystring: PageQueryFormat,
            response: { 200: Type.Ref('RevisionPage') },
          },
        },
        async (request) => {
          const r = await resolve(request);
          const raw = (request.params as Record<string, string>)[param] ?? '';
          const wanted = raw.replace(/^\/+|\/+$/g, '');
          const matches = flattenPages(r.snapshot.pages).filter((e) => e.path === wanted);
          // A group and a page may share a path; the page is what a reader means.
          const entry = matches.find((e) => e.page.type !== 'group') ?? matches[0];
          if (!entry) throw notFound(`no page at path ${wanted}`);
          return presentPage(await view(r, request.query.metadata), entry, request.query.format ?? 'document');
        },
      );
    pathRoute(`${prefix}/path/:pagePath`, false, 'pagePath');
    pathRoute(`${prefix}/path/*`, true, '*');

    app.get(
      `${prefix}/reusable-contents/:reusableContentId`,
      {
        config: { scope: 'space:read' },
        schema: {
          operationId: ids.reusable,
          tags,
          params: Type.Object({ ...target.params, reusableContentId: Type.String({ minLength: 1 }) }),
          querystring: ContentQuery,
          response: { 200: ReusableContent },
        },
      },
      async (request) => {
        const r = await resolve(request);
        const entry = r.snapshot.reusableContents.find((c) => c.id === request.params.reusableContentId);
        if (!entry) throw notFound(`reusable content ${request.params.reusableContentId} not found`);
        return presentReusableContent(await view(r, request.query.metadata), entry);
      },
    );
  }

  registerDownload(app);
}
