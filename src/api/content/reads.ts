/**
 * The handlers of the content reads, shared by the live content (./routes.ts) and a change
 * request's content (./change-request-routes.ts), which declare each operation with its own path
 * and operationId. `live` and `inChangeRequest` authorize the caller (read on the space) and load
 * the revision; the other functions answer one operation from it.
 */
import type { FastifyRequest } from 'fastify';
import { findPage, flattenPages, loadRevision, type PageNode, type Snapshot } from '../../content/store.js';
import { readsParts } from '../../core/answer-scope.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { changeRequestPart, spaceUnshownPart } from '../../db/scope-parts.js';
import { findRevisionGit } from '../../git/state.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { paginateArray } from '../../lib/paging.js';
import { authorizeSpace } from '../../permissions/content.js';
import { authorizeChangeRequest } from '../change-requests/open.js';
import { baseRevisionId, presentChangeRequest } from '../change-requests/present.js';
import { changeRequestExtras, findChangeRequest } from '../change-requests/repo.js';
import { backlinks, checkedLinks, linkStats } from './links.js';
import {
  type ContentView,
  presentFile,
  presentPage,
  presentPages,
  presentReusableContent,
  presentRevision,
} from './present.js';
import { loadPageBodies } from './repo.js';

/** The content a request reads: the space, the revision, and the change request it belongs to. */
export interface Resolved {
  space: SpaceRow;
  snapshot: Snapshot;
  changeRequest: ChangeRequestRow | null;
  appBase: string;
}

type Query = { metadata?: boolean };
type PageFormatQuery = Query & { format?: 'document' | 'markdown' };
type ListQuery = { page?: string; limit?: number };

export function contentReads(app: App) {
  async function view(r: Resolved, metadata: boolean | undefined): Promise<ContentView> {
    return {
      urls: app.urls,
      space: r.space,
      snapshot: r.snapshot,
      appBase: r.appBase,
      metadata: metadata !== false,
      // Git metadata recorded by an export or import of this very revision, when asked for.
      ...(metadata !== false ? { git: await findRevisionGit(app.db, r.snapshot.id) } : {}),
    };
  }

  /** Pages with their bodies (and Git ids when `metadata`), loaded in one go. */
  async function pagesOf(r: Resolved, metadata: boolean | undefined, pages: PageNode[] = r.snapshot.pages) {
    const v = await view(r, metadata);
    return presentPages(v, await loadPageBodies(app.db, pages, v.metadata), pages);
  }

  function pageOf(r: Resolved, pageId: string) {
    const entry = findPage(r.snapshot.pages, pageId);
    if (!entry) throw notFound(`page ${pageId} not found`);
    return entry;
  }

  function fileOf(r: Resolved, fileId: string) {
    const file = r.snapshot.files.find((f) => f.id === fileId);
    if (!file) throw notFound(`file ${fileId} not found`);
    return file;
  }

  async function presentEntry(r: Resolved, entry: ReturnType<typeof pageOf>, query: PageFormatQuery) {
    const v = await view(r, query.metadata);
    const bodies = await loadPageBodies(app.db, [entry.page], v.metadata);
    return presentPage(v, bodies, entry, query.format ?? 'document');
  }

  async function backlinksTo(r: Resolved, target: { page: string } | { file: string }, query: ListQuery) {
    const pages = await backlinks(app.db, r.snapshot, target);
    const page = paginateArray(pages, (e) => e.page.id, query);
    return {
      ...page,
      items: await pagesOf(
        r,
        true,
        page.items.map((e) => e.page),
      ),
    };
  }

  return {
    /** The live content of the space of the request's `spaceId` path parameter. */
    async live(request: FastifyRequest): Promise<Resolved> {
      const params = request.params as { spaceId: string };
      const { row: space } = await authorizeSpace(app.db, caller(request).user.id, params.spaceId, 'read', 'read it');
      readsParts(spaceUnshownPart(space.organization_id)); // no field of the space's own (db/scope-parts.ts)
      const snapshot = await loadRevision(app.db, space, space.revision_id);
      if (!snapshot) throw new Error(`live revision ${space.revision_id} of space ${space.id} is missing`);
      return { space, snapshot, changeRequest: null, appBase: `/s/${space.id}` };
    },

    /** The content of the change request of the request's `spaceId` and `changeRequestId` path parameters. */
    async inChangeRequest(request: FastifyRequest): Promise<Resolved> {
      const params = request.params as { spaceId: string; changeRequestId: string };
      const { space, changeRequest } = await authorizeChangeRequest(
        app.db,
        caller(request).user.id,
        params.spaceId,
        params.changeRequestId,
        'read',
        'read it',
      );
      readsParts(spaceUnshownPart(space.organization_id), changeRequestPart(changeRequest.id));
      const snapshot = await loadRevision(app.db, space, changeRequest.revision_id);
      if (!snapshot) throw new Error(`revision ${changeRequest.revision_id} is missing`);
      return { space, snapshot, changeRequest, appBase: `/s/${space.id}/~/changes/${changeRequest.number}` };
    },

    async revision(r: Resolved, query: Query) {
      const v = await view(r, query.metadata);
      const bodies = await loadPageBodies(app.db, r.snapshot.pages, v.metadata);
      const cr = r.snapshot.mergedFrom ? await findChangeRequest(app.db, r.space.id, r.snapshot.mergedFrom) : undefined;
      if (cr) readsParts(changeRequestPart(cr.id)); // the answer shows that change request too
      const mergedFrom = cr
        ? presentChangeRequest(cr, r.space, await changeRequestExtras(app.db, [cr]), app.urls)
        : undefined;
      return presentRevision(v, bodies, mergedFrom);
    },

    async pages(r: Resolved, query: Query) {
      return { pages: await pagesOf(r, query.metadata) };
    },

    async files(r: Resolved, query: Query & ListQuery) {
      const page = paginateArray(r.snapshot.files, (f) => f.id, query);
      const v = await view(r, query.metadata);
      return { ...page, items: page.items.map((f) => presentFile(v, f)) };
    },

    async file(r: Resolved, fileId: string, query: Query) {
      return presentFile(await view(r, query.metadata), fileOf(r, fileId));
    },

    async fileBacklinks(r: Resolved, fileId: string, query: ListQuery) {
      fileOf(r, fileId);
      return backlinksTo(r, { file: fileId }, query);
    },

    async page(r: Resolved, pageId: string, query: PageFormatQuery) {
      return presentEntry(r, pageOf(r, pageId), query);
    },

    async pageLinks(r: Resolved, pageId: string, query: ListQuery) {
      const { page } = pageOf(r, pageId);
      const links = await checkedLinks(app.db, r.snapshot, page.id);
      const initial = r.changeRequest
        ? ((await loadRevision(app.db, r.space, baseRevisionId(r.changeRequest))) ?? null)
        : null;
      const stats = await linkStats(app.db, links, initial, page.id);
      const indexed = links.map((link, index) => ({ ...link, index }));
      const result = paginateArray(indexed, (l) => l.index, query);
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

    async pageBacklinks(r: Resolved, pageId: string, query: ListQuery) {
      pageOf(r, pageId);
      return backlinksTo(r, { page: pageId }, query);
    },

    /** The page at a path (nested slugs joined by `/`); a group and a page may share one: the page wins. */
    async pageByPath(r: Resolved, rawPath: string, query: PageFormatQuery) {
      const wanted = rawPath.replace(/^\/+|\/+$/g, '');
      const matches = flattenPages(r.snapshot.pages).filter((e) => e.path === wanted);
      const entry = matches.find((e) => e.page.type !== 'group') ?? matches[0];
      if (!entry) throw notFound(`no page at path ${wanted}`);
      return presentEntry(r, entry, query);
    },

    async reusableContent(r: Resolved, reusableContentId: string, query: Query) {
      const entry = r.snapshot.reusableContents.find((c) => c.id === reusableContentId);
      if (!entry) throw notFound(`reusable content ${reusableContentId} not found`);
      return presentReusableContent(await view(r, query.metadata), entry);
    },
  };
}
