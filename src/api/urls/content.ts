/**
 * `getContentByUrl`: the space, collection, change request or page an app URL of Bindery names, as
 * the caller may read it (404 for anything they cannot: the URL reveals nothing). App URLs are those
 * the API hands out as `urls.app` (and a space's `urls.published`):
 *   /c/<collection>                          a collection
 *   /s/<space>[/published]                   a space
 *   /s/<space>/<page path>                   a page of its live content
 *   /s/<space>/~/changes/<number|id>[/<path>] a change request (and a page of its content)
 *   /s/<space>/~/revisions/<revision>         a space (at a revision: the space is what it names)
 * Any other URL is tried as published content (a site's URL): the space and page it opens, when the
 * caller may read that space.
 */
import { findPage, flattenPages, loadRevision, type Snapshot } from '../../content/store.js';
import type { SpaceRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { authorizeCollection, authorizeLoadedSpace } from '../../permissions/content.js';
import { authorizeChangeRequest } from '../change-requests/open.js';
import { presentChangeRequest } from '../change-requests/present.js';
import { changeRequestExtras } from '../change-requests/repo.js';
import { presentCollection } from '../collections/present.js';
import { presentPage } from '../content/present.js';
import { loadPageBodies } from '../content/repo.js';
import { presentSpace } from '../spaces/present.js';
import { findSpaceForRead } from '../spaces/repo.js';
import { resolvePublishedUrl } from './published.js';

type Found = { collection: unknown } | { space: unknown; changeRequest?: unknown; page?: unknown };

function appPath(app: App, raw: string): string[] | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url must be an absolute URL');
  }
  const base = new URL(app.config.publicUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.hostname.toLowerCase() !== base.hostname.toLowerCase()) return null;
  if (url.port !== '' && url.port !== base.port) return null;
  if (prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  const parts = url.pathname.slice(prefix.length).split('/').filter(Boolean);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

export async function contentByUrl(app: App, userId: string, raw: string): Promise<Found> {
  const parts = appPath(app, raw);
  if (parts?.[0] === 'c' && parts.length === 2) {
    const { row, role } = await authorizeCollection(app.db, userId, parts[1] as string, 'read', 'read it');
    return { collection: presentCollection(row, role, app.urls) };
  }
  if (parts?.[0] === 's' && parts[1]) return spaceContent(app, userId, parts[1], parts.slice(2));
  if (parts && parts[0] !== 'sites') throw notFound(`no content at ${raw}`);
  // A published URL: the space (and page) it opens, for a caller who may read that space.
  const lookup = await resolvePublishedUrl(app, { url: raw, trusted: true }).catch(() => null);
  if (!lookup || !('space' in lookup)) throw notFound(`no content at ${raw}`);
  return spaceContent(app, userId, lookup.space, lookup.pathname ? lookup.pathname.split('/') : [], true);
}

async function spaceContent(app: App, userId: string, spaceId: string, rest: string[], published = false) {
  const found = await findSpaceForRead(app.db, spaceId);
  const { row, role } = await authorizeLoadedSpace(app.db, userId, spaceId, found?.row, 'read', 'read it');
  const space = presentSpace(row, role, found?.counts as NonNullable<typeof found>['counts'], app.urls);
  if (!published && rest[0] === 'published' && rest.length === 1) return { space };
  if (!published && rest[0] === '~') {
    if (rest[1] === 'revisions' && rest[2] && rest.length === 3) {
      if (!(await loadRevision(app.db, row, rest[2]))) throw notFound(`revision ${rest[2]} not found`);
      return { space };
    }
    if (rest[1] !== 'changes' || !rest[2]) throw notFound('no content at this URL');
    const { changeRequest } = await authorizeChangeRequest(app.db, userId, spaceId, rest[2], 'read', 'read it');
    const presented = presentChangeRequest(
      changeRequest,
      row,
      await changeRequestExtras(app.db, [changeRequest]),
      app.urls,
    );
    const snapshot = await loadRevision(app.db, row, changeRequest.revision_id);
    const appBase = `/s/${row.id}/~/changes/${changeRequest.number}`;
    const page = snapshot ? await pageAt(app, row, snapshot, appBase, rest.slice(3)) : undefined;
    return { space, changeRequest: presented, ...(page ? { page } : {}) };
  }
  if (rest.length === 0) return { space };
  const snapshot = await loadRevision(app.db, row, row.revision_id);
  const page = snapshot ? await pageAt(app, row, snapshot, `/s/${row.id}`, rest) : undefined;
  if (!page) throw notFound('no page at this URL');
  return { space, page };
}

/** The page at `path` (nested slugs) of `snapshot`, presented with its document; undefined for none. */
async function pageAt(app: App, space: SpaceRow, snapshot: Snapshot, appBase: string, path: string[]) {
  if (path.length === 0) return undefined;
  const wanted = path.join('/');
  const matches = flattenPages(snapshot.pages).filter((e) => e.path === wanted && e.page.type !== 'link');
  const entry = matches.find((e) => e.page.type === 'document') ?? matches[0];
  if (!entry) return undefined;
  const view = { urls: app.urls, space, snapshot, appBase, metadata: true };
  const bodies = await loadPageBodies(app.db, [entry.page], true);
  return presentPage(view, bodies, findPage(snapshot.pages, entry.page.id) ?? entry, 'document');
}
