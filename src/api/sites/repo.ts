import type { Static } from 'typebox';
import type { DbOrTrx } from '../../core/service.js';
import { containsInsensitive, inJsonArray, toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { SiteRow, SpaceRow } from '../../db/schema.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import { SITE_SLUG_LENGTH, slugify, uniqueSlug } from '../../lib/slug.js';
import { nowIso } from '../../lib/time.js';
import { hostOwners, normalizeProxy, proxyHost } from '../../sites/hosts.js';
import { insertSiteSpace } from '../../sites/site-spaces.js';
import type { SiteOrganization } from '../../sites/urls.js';
import type { ListSitesQuery, SITE_TYPES, SITE_VISIBILITIES } from './schemas.js';

/**
 * Sites of an organization, oldest first, with the list filters applied in SQL, and the
 * organization's address fields (which every Site's URLs need) selected with the count: one query
 * fewer, and nothing per row (a join or subquery on every row cost more than a query of its own).
 */
export async function listSites(
  db: DbOrTrx,
  organizationId: string,
  filters: Static<typeof ListSitesQuery>,
): Promise<Page<SiteRow> & { org: SiteOrganization }> {
  let q = db.selectFrom('sites').where('sites.organization_id', '=', organizationId);
  if (filters.title) {
    const title = filters.title;
    q = q.where((eb) => containsInsensitive(eb.ref('sites.title'), title));
  }
  if (filters.published !== undefined) q = q.where('sites.published', '=', filters.published ? 1 : 0);
  if (filters.type && filters.type.length > 0) q = q.where('sites.type', 'in', filters.type);
  if (filters.space) {
    const spaceId = filters.space;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('site_spaces')
          .select('site_spaces.id')
          .whereRef('site_spaces.site_id', '=', 'sites.id')
          .where('site_spaces.space_id', '=', spaceId),
      ),
    );
  }
  let org: SiteOrganization = { id: organizationId, hostname: null, custom_hostname: null };
  const countWithOrganization = async () => {
    const orgField = (column: 'hostname' | 'custom_hostname') =>
      db.selectFrom('organizations').select(column).where('id', '=', organizationId);
    const found = await q
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        orgField('hostname').as('org_hostname'),
        orgField('custom_hostname').as('org_custom_hostname'),
      ])
      .executeTakeFirstOrThrow();
    org = { id: organizationId, hostname: found.org_hostname, custom_hostname: found.org_custom_hostname };
    return toCount(found.count);
  };
  const page = await paginate(
    q.selectAll('sites'),
    [
      { column: 'sites.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'sites.id', direction: 'asc', value: (r) => r.id },
    ],
    filters,
    countWithOrganization,
  );
  return { ...page, org };
}

/** A site with what its Site object shows besides its row (see {@link findSiteForRead}). */
export type SiteForRead = SiteRow & { org: SiteOrganization; siteSpaces: number };

const siteForRead = prepare((db, p: { organizationId: string; siteId: string }) =>
  db
    .selectFrom('sites')
    .innerJoin('organizations', 'organizations.id', 'sites.organization_id')
    .selectAll('sites')
    .select(['organizations.hostname as org_hostname', 'organizations.custom_hostname as org_custom_hostname'])
    .select((eb) =>
      eb
        .selectFrom('site_spaces')
        .select(eb.fn.countAll().as('n'))
        .whereRef('site_spaces.site_id', '=', 'sites.id')
        .as('site_spaces'),
    )
    .where('sites.id', '=', p.siteId)
    .where('sites.organization_id', '=', p.organizationId),
);

/** The site `siteId` of `organizationId`, its organization's address fields and its site-space count, in one query. */
export async function findSiteForRead(
  db: DbOrTrx,
  organizationId: string,
  siteId: string,
): Promise<SiteForRead | undefined> {
  const found = await siteForRead.first(db, { organizationId, siteId });
  if (!found) return undefined;
  const { org_hostname, org_custom_hostname, site_spaces, ...site } = found;
  return {
    ...site,
    org: { id: site.organization_id, hostname: org_hostname, custom_hostname: org_custom_hostname },
    siteSpaces: toCount(site_spaces),
  };
}

/** Precompiled (one SQL text for every page length): a grouped query costs less than a subquery per row. */
const siteSpaceCounts = prepare((db, p: { ids: string }) =>
  db
    .selectFrom('site_spaces')
    .select(['site_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where((eb) => inJsonArray(db, eb.ref('site_id'), p.ids))
    .groupBy('site_id'),
);

/** Number of site spaces of each site in `siteIds` (the Site's `siteSpaces`). */
export async function countSiteSpaces(db: DbOrTrx, siteIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(siteIds.map((id) => [id, 0]));
  if (siteIds.length === 0) return counts;
  const rows = await siteSpaceCounts.all(db, { ids: JSON.stringify(siteIds) });
  for (const row of rows) counts.set(row.site_id, Number(row.count));
  return counts;
}

async function takenBasenames(db: DbOrTrx, organizationId: string): Promise<string[]> {
  const rows = await db.selectFrom('sites').select('basename').where('organization_id', '=', organizationId).execute();
  return rows.map((r) => r.basename);
}

/**
 * Inserts a site, with `spaces` (already authorized) as its first site spaces in that order; the
 * first becomes the default. The basename is made from the title and is free in the organization.
 * Call it inside a transaction.
 */
export async function insertSite(
  db: DbOrTrx,
  organizationId: string,
  input: {
    type?: (typeof SITE_TYPES)[number];
    title?: string;
    visibility?: (typeof SITE_VISIBILITIES)[number];
  },
  spaces: Array<Pick<SpaceRow, 'id' | 'title'>>,
): Promise<SiteRow> {
  const now = nowIso();
  const title = input.title ?? 'Untitled site';
  const site: SiteRow = {
    id: newId(),
    organization_id: organizationId,
    type: input.type ?? 'basic',
    title,
    basename: uniqueSlug(
      slugify(title, { fallback: 'site', maxLength: SITE_SLUG_LENGTH }),
      await takenBasenames(db, organizationId),
    ),
    hostname: null,
    proxy: null,
    visibility: input.visibility ?? 'public',
    published: 0,
    adaptive_content: 0,
    ads_status: 'pending',
    ads_topic: null,
    ads_email: null,
    ads_zone_id: null,
    ads_reporting_id: null,
    ads_reason: null,
    customization: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('sites').values(site).execute();
  for (const space of spaces) await insertSiteSpace(db, site.id, space, null);
  return site;
}

/**
 * The proxy origin `site` may take (its host lower-cased): only on a host its own organization owns
 * (src/sites/hosts.ts), 400 otherwise, since another organization's host would serve this site
 * there; and no other site's proxy (409), which would make one of the two unreachable.
 */
async function ownProxy(db: DbOrTrx, site: SiteRow, origin: string): Promise<string> {
  const proxy = normalizeProxy(origin);
  const host = proxyHost(proxy);
  const owners = await hostOwners(db, host);
  if (owners.length !== 1 || owners[0] !== site.organization_id) {
    throw badRequest(
      `body/proxy "${origin}": ${host} is not a hostname of this organization (a proxy must be on the ` +
        "organization's custom hostname or one of its sites' custom hostnames)",
    );
  }
  const taken = await db
    .selectFrom('sites')
    .select('id')
    .where('proxy', '=', proxy)
    .where('id', '!=', site.id)
    .executeTakeFirst();
  if (taken) throw conflict(`body/proxy "${proxy}" is already the proxy of another site`);
  return proxy;
}

/**
 * Applies the plain fields of an update; a basename used by another site of the organization is a
 * 409, a proxy as {@link ownProxy} says.
 */
export async function updateSite(
  db: DbOrTrx,
  site: SiteRow,
  patch: {
    title?: string;
    visibility?: string;
    basename?: string;
    adaptiveContent?: { enabled: boolean };
    proxy?: string | null;
    published?: boolean;
  },
): Promise<void> {
  if (patch.basename !== undefined && patch.basename !== site.basename) {
    const taken = await db
      .selectFrom('sites')
      .select('id')
      .where('organization_id', '=', site.organization_id)
      .where('basename', '=', patch.basename)
      .executeTakeFirst();
    if (taken) throw conflict(`body/basename "${patch.basename}" is already used by another site of the organization`);
  }
  const set: Partial<SiteRow> = { updated_at: nowIso() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.visibility !== undefined) set.visibility = patch.visibility;
  if (patch.basename !== undefined) set.basename = patch.basename;
  if (patch.adaptiveContent !== undefined) set.adaptive_content = patch.adaptiveContent.enabled ? 1 : 0;
  if (patch.proxy !== undefined) set.proxy = patch.proxy === null ? null : await ownProxy(db, site, patch.proxy);
  if (patch.published !== undefined) set.published = patch.published ? 1 : 0;
  await db.updateTable('sites').set(set).where('id', '=', site.id).execute();
}

/** Deletes a site; its site spaces, sections, groups, redirects and share links go with it (cascade). */
export async function deleteSite(db: DbOrTrx, siteId: string): Promise<void> {
  // Its grants are not rows of the site (content_permissions holds every target's).
  await db
    .deleteFrom('content_permissions')
    .where('target_type', '=', 'site')
    .where('target_id', '=', siteId)
    .execute();
  await db.deleteFrom('sites').where('id', '=', siteId).execute();
}

/** The live (not deleted) spaces among `spaceIds`, as resolver nodes. */
export async function liveSpaceNodes(db: DbOrTrx, spaceIds: string[]) {
  if (spaceIds.length === 0) return [];
  return db
    .selectFrom('spaces')
    .select(['id', 'parent_id', 'default_level'])
    .where('id', 'in', spaceIds)
    .where('deleted_at', 'is', null)
    .execute();
}
