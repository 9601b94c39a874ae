/**
 * What the services of the sites sub-areas share: the site the caller changes (authorized by the
 * site policy) and a change of its structure inside one transaction, with the structure loaded in
 * that transaction (so its rules — one default, sibling order — hold against concurrent changes).
 */
import type { Transaction } from 'kysely';
import { actingUser, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { Database } from '../../../db/schema.js';
import { recordEvent } from '../../../events/record.js';
import { type AuthorizedSite, authorizeSite, type SiteAction } from '../../../permissions/sites.js';
import { siteNodesChanged } from '../../../sites/node-cache.js';
import { findSite } from '../../../sites/repo.js';
import { loadStructure, type Structure } from '../../../sites/structure.js';
import { loadSiteView } from './context.js';
import { presentStructure } from './present.js';

/** The site `siteId` of the organization if the acting user may do `action` on it (404 / 403 otherwise). */
export function siteToChange(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  action: SiteAction = 'write',
  what = 'change it',
): Promise<AuthorizedSite> {
  return authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, action, what);
}

/**
 * Runs `change` in one transaction on the site's structure as that transaction sees it, without
 * recording `site.structure.updated` (redirects: they live with the structure but are not part of
 * it, and record their own events).
 */
export function withStructure<T>(
  ctx: ServiceContext,
  siteId: string,
  change: (trx: Transaction<Database>, structure: Structure) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (trx) => change(trx, await loadStructure(trx, siteId)));
}

/**
 * Changes the site's structure (site spaces, sections, section groups) like `withStructure`, and
 * records `site.structure.updated` with the structure as `getSiteStructure` then presents it to the
 * acting user. Every structure change goes through here, so the organization's cached site-space
 * nodes are dropped here (for all of them: they are rare, and most add or remove site spaces).
 */
export function changeStructure<T>(
  ctx: ServiceContext,
  { site, role }: AuthorizedSite,
  change: (trx: Transaction<Database>, structure: Structure) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    const result = await change(trx, await loadStructure(trx, site.id));
    siteNodesChanged(trx, site.organization_id);
    const changed = (await findSite(trx, site.id)) ?? site;
    const view = await loadSiteView({ db: trx, urls: ctx.urls }, changed, { userId: actingUser(ctx).id, role });
    await recordEvent(trx, ctx, {
      type: 'site.structure.updated',
      organizationId: site.organization_id,
      target: { object: 'site', id: site.id, label: changed.title },
      data: { object: presentStructure(view) },
    });
    return result;
  });
}
