/** The ads fields of sites: the partner's list by review status, one site's ads state, their changes. */

import type { DbOrTrx } from '../../../core/service.js';
import type { SiteRow } from '../../../db/schema.js';
import { type Page, paginate } from '../../../lib/paging.js';
import { nowIso } from '../../../lib/time.js';

/** A site submitted for ads review, with the organization fields its URL is made of. */
export interface AdsSiteRow
  extends Pick<
    SiteRow,
    'id' | 'basename' | 'hostname' | 'proxy' | 'ads_status' | 'ads_topic' | 'ads_email' | 'ads_zone_id' | 'ads_reason'
  > {
  org_id: string;
  org_hostname: string | null;
  org_custom_hostname: string | null;
}

/** Sites submitted for ads review (with a topic) whose ads status is `status`, by id. */
export async function listAdsSites(
  db: DbOrTrx,
  status: string,
  paging: { page?: string; limit?: number },
): Promise<Page<AdsSiteRow>> {
  const query = db
    .selectFrom('sites')
    .innerJoin('organizations', 'organizations.id', 'sites.organization_id')
    .select([
      'sites.id',
      'sites.basename',
      'sites.hostname',
      'sites.proxy',
      'sites.ads_status',
      'sites.ads_topic',
      'sites.ads_email',
      'sites.ads_zone_id',
      'sites.ads_reason',
      'organizations.id as org_id',
      'organizations.hostname as org_hostname',
      'organizations.custom_hostname as org_custom_hostname',
    ])
    .where('sites.ads_status', '=', status)
    .where('sites.ads_topic', 'is not', null);
  return paginate(query, [{ column: 'sites.id', direction: 'asc', value: (r) => r.id }], paging);
}

export async function findAdsState(db: DbOrTrx, siteId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'organization_id', 'ads_topic'])
    .where('id', '=', siteId)
    .executeTakeFirst();
}

/** Sets the ads fields of a site (the others are left as they are). */
export async function setAds(
  db: DbOrTrx,
  siteId: string,
  fields: Partial<
    Pick<SiteRow, 'ads_status' | 'ads_topic' | 'ads_email' | 'ads_zone_id' | 'ads_reporting_id' | 'ads_reason'>
  >,
): Promise<void> {
  await db
    .updateTable('sites')
    .set({ ...fields, updated_at: nowIso() })
    .where('id', '=', siteId)
    .execute();
}
