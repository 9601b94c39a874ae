/**
 * The organization's site-space nodes (which site publishes which live space, with the space's
 * parent and default level), kept in process for a short time like the collection tree
 * (permissions/access-cache.ts): every member read counts the member's sites from them, so a warm
 * member read needs no query for its `sites`.
 *
 * Every write that changes what {@link listSiteSpaceNodes} returns calls {@link siteNodesChanged}
 * with the transaction it runs in: a site created (with spaces) or deleted, a change of a site's
 * structure (site spaces added or removed, sections deleted with theirs), a space deleted, restored
 * or moved, or given another default level, collections deleted (their spaces with them) or
 * transferred. The tag is the organization's: such writes are rare next to member reads.
 */
import { invalidate, readThrough, TtlCache } from '../core/cache.js';
import { afterCommit, type DbOrTrx } from '../core/service.js';
import { declareOrganizationBaseWrite, organizationScope } from '../db/write-scope.js';
import { listSiteSpaceNodes } from './repo.js';

const SITE_NODES_TTL_MS = 10_000;

export type SiteSpaceNode = Awaited<ReturnType<typeof listSiteSpaceNodes>>[number];

const siteNodesTag = (organizationId: string) => `site-nodes:${organizationId}`;
const siteNodes = new TtlCache<readonly SiteSpaceNode[]>(SITE_NODES_TTL_MS, 2_000);

/**
 * Call with every write that changes the site spaces of `organizationId` or the live spaces they
 * publish: drops the cached nodes now and again once `db`'s transaction has ended.
 */
export function siteNodesChanged(db: DbOrTrx, ...organizationIds: string[]): void {
  const tags = organizationIds.map(siteNodesTag);
  invalidate(...tags);
  afterCommit(db, () => invalidate(...tags));
  // The cached answers of these organizations go when the write commits (src/db/write-scope.ts):
  // all of them, as the nodes hold who may read which space (src/db/scope-parts.ts).
  for (const id of organizationIds) declareOrganizationBaseWrite(id);
}

/** {@link listSiteSpaceNodes}, cached (shared between requests: read it, never change it). */
export function siteSpaceNodes(db: DbOrTrx, organizationId: string): Promise<readonly SiteSpaceNode[]> {
  const tags = [siteNodesTag(organizationId), organizationScope(organizationId)];
  return readThrough(db, siteNodes, organizationId, tags, () => listSiteSpaceNodes(db, organizationId));
}
