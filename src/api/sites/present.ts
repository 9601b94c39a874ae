import type { Static } from 'typebox';
import type { SiteRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { siteFlags } from '../../permissions/sites.js';
import { directBase, type PublishedUrls, type SiteOrganization, siteHostname } from '../../sites/urls.js';
import type { Site } from './schemas.js';
import { presentAds } from './shared/present.js';

export type SiteObject = Static<typeof Site>;

/** The Site object as a member with organization role `role` sees it. */
export function presentSite(
  site: SiteRow,
  context: { org: SiteOrganization; role: Role | null; siteSpaces: number; published: PublishedUrls; urls: Urls },
): SiteObject {
  const { org, urls } = context;
  const hostname = siteHostname(site, org);
  const published = context.published.ofSite();
  const location = urls.api(`/orgs/${site.organization_id}/sites/${site.id}`);
  const app = urls.app(`/o/${site.organization_id}/sites/${site.id}`);
  return {
    object: 'site',
    id: site.id,
    type: site.type as SiteObject['type'],
    appliedType: site.type as SiteObject['type'],
    title: site.title,
    ...(hostname ? { hostname } : {}),
    basename: site.basename,
    ...(site.proxy ? { proxy: { origin: site.proxy, target: directBase(site, org, urls) } } : {}),
    visibility: site.visibility as SiteObject['visibility'],
    defaultLevel: 'inherit',
    permissions: siteFlags(context.role),
    published: site.published === 1,
    siteSpaces: context.siteSpaces,
    createdAt: site.created_at,
    adaptiveContent: { enabled: site.adaptive_content === 1 },
    ads: presentAds(site),
    features: [],
    urls: { location, app, preview: `${app}/preview`, ...(published ? { published } : {}) },
  };
}
