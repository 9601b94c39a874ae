/**
 * What presenting anything of a site needs, loaded once per request: the site, its organization's
 * address fields, its structure, the Space objects of its site spaces (as the caller sees them) and
 * the published-URL builder (with the share key, when one was given and is valid).
 */

import type { Db } from '../../../db/database.js';
import type { SiteRow } from '../../../db/schema.js';
import { badRequest } from '../../../lib/errors.js';
import type { Role } from '../../../lib/schemas.js';
import type { Urls } from '../../../lib/urls.js';
import { loadViewer } from '../../../permissions/resolver.js';
import { findShareLinkByKey, loadSiteOrganization } from '../../../sites/repo.js';
import { loadStructure, type Structure } from '../../../sites/structure.js';
import { PublishedUrls, type SiteOrganization } from '../../../sites/urls.js';
import { presentSpaces, type SpaceObject } from '../../spaces/present.js';
import { findSpacesByIds, spaceExtras } from '../../spaces/repo.js';

export interface SiteView {
  site: SiteRow;
  org: SiteOrganization;
  /** The caller's organization role. */
  role: Role;
  structure: Structure;
  spaces: Map<string, SpaceObject>;
  urls: PublishedUrls;
}

/**
 * The key of an active share link of `siteId`, or null when none was given. A key that is unknown,
 * deactivated or of another site is a 400: the caller sees the site, only the parameter is wrong.
 */
export async function resolveShareKey(db: Db, siteId: string, key: string | undefined): Promise<string | null> {
  if (key === undefined) return null;
  const link = await findShareLinkByKey(db, siteId, key);
  if (link?.active !== 1) throw badRequest('querystring/shareKey is not the key of an active share link of this site');
  return link.key;
}

/** The site as `caller` sees it, read through `db` (the app's, or the transaction of a change). */
export async function loadSiteView(
  { db, urls: apiUrls }: { db: Db; urls: Urls },
  site: SiteRow,
  caller: { userId: string; role: Role },
  shareKey: string | null = null,
): Promise<SiteView> {
  const [org, structure, viewer] = await Promise.all([
    loadSiteOrganization(db, site.organization_id),
    loadStructure(db, site.id),
    loadViewer(db, site.organization_id, caller.userId),
  ]);
  const spaceRows = await findSpacesByIds(db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]);
  const extras = await spaceExtras(db, spaceRows);
  const spaces = new Map(presentSpaces(spaceRows, viewer, extras, apiUrls).map((s) => [s.id, s]));
  return {
    site,
    org,
    role: caller.role,
    structure,
    spaces,
    urls: new PublishedUrls(site, org, apiUrls, shareKey),
  };
}
