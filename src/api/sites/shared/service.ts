/**
 * What the services of the sites sub-areas share: the site the caller changes (authorized by the
 * site policy) and a change of its structure inside one transaction, with the structure loaded in
 * that transaction (so its rules — one default, sibling order — hold against concurrent changes).
 */
import type { Transaction } from 'kysely';
import { actingUser, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { Database } from '../../../db/schema.js';
import { type AuthorizedSite, authorizeSite, type SiteAction } from '../../../permissions/sites.js';
import { loadStructure, type Structure } from '../../../sites/structure.js';

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

/** Runs `change` in one transaction on the site's structure as that transaction sees it. */
export function changeStructure<T>(
  ctx: ServiceContext,
  siteId: string,
  change: (trx: Transaction<Database>, structure: Structure) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (trx) => change(trx, await loadStructure(trx, siteId)));
}
