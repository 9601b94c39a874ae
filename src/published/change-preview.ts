/**
 * A change request's preview, drawn by the published site's own renderer: the site as readers would
 * see it once the change request is merged. Served only under `PUBLIC_URL` (where the app's session
 * cookie is sent), never on a site's own host:
 *
 * - `PUBLIC_URL/sites/~changes/<change request id>[?page=<page id>]`: sends the person to the
 *   preview on the first site that shows the change request's space (published sites first);
 * - `PUBLIC_URL/sites/<org>/<basename>/~changes/<change request id>/…`: that site with the change
 *   request's space at the change request's revision. Only that site space is shown (as a site
 *   space's preview link does): the others may be spaces the person cannot read. Its address alone
 *   (`?page=<page id>`) sends the person to that page.
 *
 * Only someone whose session may read the change request (src/permissions) is answered; everyone
 * else gets the site's bare 404, whatever the site's visibility: unmerged content never reaches a
 * reader. The pages are `private, no-store`, `noindex`, and kept in the render cache under the
 * change request's revision (revisions never change). Search, feedback and the machine-readable
 * files, which read or write the live site, answer 404 there.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorizeChangeRequest } from '../api/change-requests/open.js';
import { verifySession } from '../core/sessions.js';
import type { ChangeRequestRow, SpaceRow } from '../db/schema.js';
import type { App } from '../http/app.js';
import { sessionSecretOf } from '../http/auth.js';
import { ApiError } from '../lib/errors.js';
import type { Address } from './address.js';
import { securityHeaders } from './headers.js';
import { previewView, type SiteModel } from './model.js';
import { SiteReader } from './reader.js';
import { bare, type PublishedSites } from './service.js';

/** The path segment that starts a change request's preview under a site's address. */
export const CHANGES_SEGMENT = '~changes';

/**
 * The space and change request `changeRequestId` names, when the request's session may read them;
 * null otherwise (no session, an ended one, no such change request, or no right to read it).
 */
async function readableChangeRequest(
  app: App,
  request: FastifyRequest,
  changeRequestId: string,
): Promise<{ space: SpaceRow; changeRequest: ChangeRequestRow } | null> {
  const secret = sessionSecretOf(request);
  if (!secret) return null;
  const check = await verifySession(app.db, secret, {
    idleMs: app.config.sessionIdleMs,
    maxMs: app.config.sessionMaxMs,
  });
  if (!check.ok) return null;
  const row = await app.db
    .selectFrom('change_requests')
    .select('space_id')
    .where('id', '=', changeRequestId)
    .executeTakeFirst();
  if (!row) return null;
  try {
    const { space, changeRequest } = await authorizeChangeRequest(
      app.db,
      check.session.user.id,
      row.space_id,
      changeRequestId,
      'read',
      'preview its change requests',
    );
    return { space, changeRequest };
  } catch (error) {
    if (error instanceof ApiError && (error.statusCode === 403 || error.statusCode === 404)) return null;
    throw error;
  }
}

/** Nothing of a preview may be kept by anyone but the person's own browser, nor indexed. */
function privateReply(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
}

/** `PUBLIC_URL/sites/~changes/<id>`: to the preview on the first site showing the change request's space. */
export async function serveChangeEntry(
  published: PublishedSites,
  request: FastifyRequest,
  reply: FastifyReply,
  changeRequestId: string,
  sitesPath: string,
): Promise<FastifyReply> {
  const app = published.app;
  const found = await readableChangeRequest(app, request, changeRequestId);
  if (!found) return bare(reply, 404);
  const site = await app.db
    .selectFrom('sites')
    .innerJoin('site_spaces', 'site_spaces.site_id', 'sites.id')
    .select(['sites.id', 'sites.basename', 'sites.organization_id'])
    .where('site_spaces.space_id', '=', found.space.id)
    .where('sites.organization_id', '=', found.space.organization_id)
    .orderBy('sites.published', 'desc')
    .orderBy('sites.created_at')
    .orderBy('sites.id')
    .executeTakeFirst();
  if (!site) return bare(reply, 404);
  const page = new URLSearchParams(request.url.split('?')[1] ?? '').get('page');
  const location = `${sitesPath}/${encodeURIComponent(site.organization_id)}/${encodeURIComponent(site.basename)}/${CHANGES_SEGMENT}/${encodeURIComponent(changeRequestId)}${page ? `?${new URLSearchParams({ page })}` : ''}`;
  return privateReply(reply).code(302).redirect(location);
}

/**
 * The site `model` as it would be with `changeRequest` merged, limited to the (first) site space
 * showing its space; null when the site shows that space nowhere.
 */
function changeRequestView(model: SiteModel, space: SpaceRow, changeRequest: ChangeRequestRow): SiteModel | null {
  const siteSpaces = model.structure.siteSpaces.filter((s) => s.space_id === space.id);
  const siteSpace = siteSpaces.find((s) => s.is_default === 1) ?? siteSpaces[0];
  const live = model.spaces.get(space.id);
  if (!siteSpace || !live) return null;
  const spaces = new Map(model.spaces).set(space.id, { ...live, revision_id: changeRequest.revision_id });
  // The preview shows every page: visitor conditions are for readers of the live site.
  return previewView({ ...model, spaces, hidden: new Set() }, siteSpace.id);
}

/**
 * `…/<basename>/~changes/<id>/<rest>` of a site: `address` is the preview's (its base path ends with
 * the change request's segment), so every link of its pages stays in the preview.
 */
export async function serveChangePreview(
  published: PublishedSites,
  request: FastifyRequest,
  reply: FastifyReply,
  address: Address,
  changeRequestId: string,
): Promise<FastifyReply> {
  const segments = address.rest.split('/').filter(Boolean);
  // Static assets reveal nothing, and are the same for every site.
  if (segments[0] === '~assets') return published.serve(request, reply, address);
  const found = await readableChangeRequest(published.app, request, changeRequestId);
  const model = found ? await published.model(address.siteId) : null;
  const view = found && model ? changeRequestView(model, found.space, found.changeRequest) : null;
  if (!found || !model || !view) return bare(reply, 404);
  securityHeaders(privateReply(reply), 'resource');
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const pageId = query.get('page');
  if (segments.length === 0 && pageId) {
    // The preview's own address with a page asked for: to that page's address in the preview.
    const reader = new SiteReader(published.app.db, view, address.basePath);
    const previewed = view.structure.siteSpaces.find((s) => s.id === view.previewOf);
    const content = previewed ? await reader.content(previewed) : null;
    const entry = content?.byId.get(pageId);
    if (content && entry) return reply.code(302).redirect(reader.pageHref(content, entry));
  }
  return published.answer(request, reply, address, view, {
    isPublic: false,
    version: `${model.version}|${found.changeRequest.revision_id}`,
    query,
    feedback: false,
    preview: true,
  });
}
