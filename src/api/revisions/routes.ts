/**
 * The revision history: any revision of a space (live, past, or of a change request), read by
 * whoever can read the space, with the operations the official document gives it. A revision id of
 * another space is a 404, as is one the caller cannot see.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { semanticChanges } from '../../content/semantic-changes.js';
import { type FlatPage, findPage, flattenPages, type Snapshot } from '../../content/store.js';
import type { SpaceRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { paginateArray } from '../../lib/paging.js';
import { authorizeSpace } from '../../permissions/content.js';
import { presentChangeRequest } from '../change-requests/present.js';
import { changeRequestExtras } from '../change-requests/repo.js';
import { presentFile, presentPages, presentReusableContent, presentRevision } from '../content/present.js';
import { loadPageBodies } from '../content/repo.js';
import { FileList, PagesList, ReusableContent, Revision, RevisionFileSchema } from '../content/schemas.js';
import { loadDocument, presentRevisionPage, presentSemanticChanges, revisionView } from './present.js';
import { findMergedFrom, findParent, findRevision, revisionGit } from './repo.js';
import {
  DocumentQuery,
  JsonDocument,
  RevisionFileParams,
  RevisionFilesQuery,
  RevisionPageParams,
  RevisionPageQuery,
  RevisionParams,
  RevisionPathQuery,
  RevisionQuery,
  RevisionReusableParams,
  SemanticChanges,
  SemanticChangesQuery,
} from './schemas.js';

const tags = ['revisions'];
/** Every read here is a function of the revision read, the caller and the URL: cacheable. */
const config = { scope: 'space:read' as const, cacheable: true };

interface Loaded {
  space: SpaceRow;
  snapshot: Snapshot;
}

export default async function revisionRoutes(app: App) {
  async function load(request: FastifyRequest): Promise<Loaded> {
    const { spaceId, revisionId } = request.params as { spaceId: string; revisionId: string };
    const { row: space } = await authorizeSpace(app.db, caller(request).user.id, spaceId, 'read', 'read it');
    const snapshot = await findRevision(app.db, space, revisionId);
    if (!snapshot) throw notFound(`revision ${revisionId} not found in space ${space.id}`);
    return { space, snapshot };
  }

  async function view({ space, snapshot }: Loaded, metadata: boolean | undefined) {
    const wanted = metadata !== false;
    return revisionView(app, space, snapshot, wanted, await revisionGit(app.db, snapshot, wanted));
  }

  async function mergedFrom({ space, snapshot }: Loaded) {
    const row = await findMergedFrom(app.db, snapshot);
    return row ? presentChangeRequest(row, space, await changeRequestExtras(app.db, [row]), app.urls) : undefined;
  }

  /** One page with its body (bodies are loaded here: the presenters do not query). */
  async function presentPageOf(
    loaded: Loaded,
    entry: FlatPage,
    query: { metadata?: boolean; format?: 'document' | 'markdown'; 'format.markdown.refs'?: 'relative' | 'stable' },
  ) {
    const v = await view(loaded, query.metadata);
    const bodies = await loadPageBodies(app.db, [entry.page], v.metadata);
    return presentRevisionPage(
      v,
      bodies,
      entry,
      query.format ?? 'document',
      query['format.markdown.refs'] ?? 'relative',
    );
  }

  const pageOf = ({ snapshot }: Loaded, pageId: string) => {
    const entry = findPage(snapshot.pages, pageId);
    if (!entry) throw notFound(`page ${pageId} not found in revision ${snapshot.id}`);
    return entry;
  };

  app.get(
    '/spaces/:spaceId/revisions/:revisionId',
    {
      config,
      schema: {
        operationId: 'getRevisionById',
        tags,
        params: RevisionParams,
        querystring: RevisionQuery,
        response: { 200: Revision },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const v = await view(loaded, request.query.metadata);
      const bodies = await loadPageBodies(app.db, loaded.snapshot.pages, v.metadata);
      return presentRevision(v, bodies, await mergedFrom(loaded));
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes',
    {
      config,
      schema: {
        operationId: 'getRevisionSemanticChanges',
        description:
          'Pages (created, edited, moved to another parent, deleted), files and reusable contents changed by the revision against its first parent (for a merge: the live revision it was merged into). Fields the official attributes cannot name (a page icon, hidden) are not reported.',
        tags,
        params: RevisionParams,
        querystring: SemanticChangesQuery,
        response: { 200: SemanticChanges },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const parent = await findParent(app.db, loaded.space, loaded.snapshot);
      const changes = semanticChanges(parent ?? { pages: [], files: [], reusableContents: [] }, loaded.snapshot);
      const after = await view(loaded, request.query.metadata);
      const before = parent ? revisionView(app, loaded.space, parent, false, undefined) : undefined;
      return presentSemanticChanges(after, before, changes, request.query.limit ?? 10, await mergedFrom(loaded));
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/pages',
    {
      config,
      schema: {
        operationId: 'listPagesInRevisionById',
        tags,
        params: RevisionParams,
        querystring: RevisionQuery,
        response: { 200: PagesList },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const v = await view(loaded, request.query.metadata);
      return { pages: presentPages(v, await loadPageBodies(app.db, loaded.snapshot.pages, v.metadata)) };
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files',
    {
      config,
      schema: {
        operationId: 'listFilesInRevisionById',
        tags,
        params: RevisionParams,
        querystring: RevisionFilesQuery,
        response: { 200: FileList },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const page = paginateArray(loaded.snapshot.files, (f) => f.id, request.query);
      const v = await view(loaded, request.query.metadata);
      return { ...page, items: page.items.map((f) => presentFile(v, f)) };
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    {
      config,
      schema: {
        operationId: 'getFileInRevisionById',
        tags,
        params: RevisionFileParams,
        querystring: RevisionQuery,
        response: { 200: RevisionFileSchema },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const file = loaded.snapshot.files.find((f) => f.id === request.params.fileId);
      if (!file) throw notFound(`file ${request.params.fileId} not found in revision ${loaded.snapshot.id}`);
      return presentFile(await view(loaded, request.query.metadata), file);
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    {
      config,
      schema: {
        operationId: 'getPageInRevisionById',
        tags,
        params: RevisionPageParams,
        querystring: RevisionPageQuery,
        response: { 200: Type.Ref('RevisionPage') },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const { query } = request;
      return presentPageOf(loaded, pageOf(loaded, request.params.pageId), query);
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
    {
      config,
      schema: {
        operationId: 'getPageDocumentInRevisionById',
        description: 'The body of a document page (404 for a group or link page, which have none).',
        tags,
        params: RevisionPageParams,
        querystring: DocumentQuery,
        response: { 200: JsonDocument },
      },
    },
    async (request) => {
      const { page } = pageOf(await load(request), request.params.pageId);
      if (page.type !== 'document') throw notFound(`page ${page.id} is a ${page.type} page and has no document`);
      return loadDocument(app.db, page.document);
    },
  );

  // `{pagePath}` is documented; nested paths (`a/b/c`) reach the same handler through the hidden
  // wildcard route (a path parameter cannot span segments).
  const pathRoute = (url: string, param: string, hidden: boolean) =>
    app.get(
      url,
      {
        config,
        schema: {
          ...(hidden ? { hide: true } : { operationId: 'getPageInRevisionByPath' }),
          tags,
          params: Type.Object({
            ...RevisionParams.properties,
            [param]: Type.String({ description: 'The page path: nested slugs joined by /' }),
          }),
          querystring: RevisionPathQuery,
          response: { 200: Type.Ref('RevisionPage') },
        },
      },
      async (request) => {
        const loaded = await load(request);
        const raw = (request.params as Record<string, string>)[param] ?? '';
        const wanted = raw.replace(/^\/+|\/+$/g, '');
        // Link pages have no path of their own (the official answer is a document or a group); a
        // group and a page may share one, and the page is what a reader means.
        const matches = flattenPages(loaded.snapshot.pages).filter((e) => e.path === wanted && e.page.type !== 'link');
        const entry = matches.find((e) => e.page.type === 'document') ?? matches[0];
        if (!entry) throw notFound(`no page at path ${wanted} in revision ${loaded.snapshot.id}`);
        return presentPageOf(loaded, entry, request.query);
      },
    );
  pathRoute('/spaces/:spaceId/revisions/:revisionId/path/:pagePath', 'pagePath', false);
  pathRoute('/spaces/:spaceId/revisions/:revisionId/path/*', '*', true);

  const reusableOf = ({ snapshot }: Loaded, id: string) => {
    const entry = snapshot.reusableContents.find((c) => c.id === id);
    if (!entry) throw notFound(`reusable content ${id} not found in revision ${snapshot.id}`);
    return entry;
  };

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
    {
      config,
      schema: {
        operationId: 'getReusableContentInRevisionById',
        tags,
        params: RevisionReusableParams,
        querystring: RevisionQuery,
        response: { 200: ReusableContent },
      },
    },
    async (request) => {
      const loaded = await load(request);
      const entry = reusableOf(loaded, request.params.reusableContentId);
      return presentReusableContent({ metadata: request.query.metadata !== false }, entry);
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
    {
      config,
      schema: {
        operationId: 'getReusableContentDocumentInRevisionById',
        tags,
        params: RevisionReusableParams,
        querystring: DocumentQuery,
        response: { 200: JsonDocument },
      },
    },
    async (request) => {
      const entry = reusableOf(await load(request), request.params.reusableContentId);
      return loadDocument(app.db, entry.document);
    },
  );
}
