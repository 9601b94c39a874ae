/**
 * What serving a published site needs, loaded whole in a few queries: the site, its organization's
 * address fields, its structure, the live spaces of its site spaces, its redirects, the keys of its
 * active share links and its visitor-authentication settings — and a version key, the hash of all
 * of it. Everything rendered from a site depends only on this model (and the immutable revisions it
 * names), so the version key is what the render cache is keyed by: a merge (a space's live
 * revision), a customization, a structure change or a publish each change it.
 */
import { createHash } from 'node:crypto';
import { decryptSecret } from '../core/secrets.js';
import type { Db } from '../db/database.js';
import type { GitSyncRow, SiteRedirectRow, SiteRow, SiteSpaceRow, SpaceRow } from '../db/schema.js';
import { gitSyncOf } from '../git/state.js';
import { looksLikeId } from '../lib/ids.js';
import { conditionHolds, type VisitorContext } from '../sites/condition.js';
import { hostOwners } from '../sites/hosts.js';
import { loadStructure, type Structure } from '../sites/structure.js';
import type { SiteOrganization } from '../sites/urls.js';
import { headerConditions, headerKey, loadPageConditions, pageKey } from './adaptive.js';

export interface VisitorAuth {
  backend: string;
  /** The HS256 key visitors' JWTs are signed with. */
  privateKey: string;
  fallbackUrl: string | null;
  logoutUrl: string | null;
}

export interface SiteModel {
  site: SiteRow;
  org: SiteOrganization;
  structure: Structure;
  /** The live (not deleted) space of each site space, by space id. */
  spaces: Map<string, SpaceRow>;
  redirects: SiteRedirectRow[];
  /** The Git Sync connection of each space that has one (for the "Edit on …" link). */
  gitSync: Map<string, GitSyncRow>;
  /** Keys of the site's active share links. */
  shareKeys: Set<string>;
  visitorAuth: VisitorAuth | null;
  /** Conditions of the live pages of the site's spaces: space id → page id → condition. */
  pageConditions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Conditions of the header items of the site's customization and its site spaces'. */
  headerConditions: readonly string[];
  /** Hash of everything above: equal keys render equal pages. */
  version: string;
  /**
   * What the current visitor may not see (adaptive content): ids of sections, site spaces and external links,
   * `pageKey`s of pages and `headerKey`s of header items (src/published/adaptive.ts) whose
   * condition does not hold; empty in the model as loaded, filled in by {@link visitorView} per request.
   */
  hidden: ReadonlySet<string>;
  /**
   * Set by {@link previewView}: the one site space a preview link opens. The site's addresses stay
   * those of the whole site then (its default section and site spaces are not taken from the others).
   */
  previewOf?: string;
}

/** The site spaces a reader may open: those whose space still exists and is not deleted. */
export function readableSiteSpaces(model: SiteModel, sectionId?: string | null): SiteSpaceRow[] {
  const all = sectionId === undefined ? model.structure.siteSpaces : model.structure.siteSpacesIn(sectionId);
  const { hidden } = model;
  return all.filter(
    (s) => model.spaces.has(s.space_id) && !hidden.has(s.id) && !(s.section_id && hidden.has(s.section_id)),
  );
}

/** Whether any section, site space, external link, page or header item of the site has a visitor condition (most sites have none). */
export function hasConditions(model: SiteModel): boolean {
  return (
    model.structure.sections.some((s) => s.condition) ||
    model.structure.siteSpaces.some((s) => s.condition) ||
    model.structure.links.some((l) => l.condition) ||
    model.pageConditions.size > 0 ||
    model.headerConditions.length > 0
  );
}

/**
 * The site as `visitor` sees it: the sections, site spaces and pages whose condition does not hold
 * are hidden (from navigation, search, the machine-readable files, and their pages answer 404), and
 * so are such header items.
 */
export function visitorView(model: SiteModel, visitor: VisitorContext): SiteModel {
  if (!hasConditions(model)) return model;
  const hidden = new Set<string>();
  for (const row of [...model.structure.sections, ...model.structure.siteSpaces, ...model.structure.links]) {
    if (!conditionHolds(row.condition, visitor)) hidden.add(row.id);
  }
  for (const [spaceId, pages] of model.pageConditions) {
    for (const [pageId, condition] of pages) {
      if (!conditionHolds(condition, visitor)) hidden.add(pageKey(spaceId, pageId));
    }
  }
  for (const condition of model.headerConditions) {
    if (!conditionHolds(condition, visitor)) hidden.add(headerKey(condition));
  }
  return hidden.size === 0 ? model : { ...model, hidden };
}

/**
 * The site as a preview of one site space shows it: every other site space, and every section but
 * that one's, hidden (from navigation, search, the machine-readable files; their pages answer 404).
 */
export function previewView(model: SiteModel, siteSpaceId: string): SiteModel {
  const hidden = new Set(model.hidden);
  const previewed = model.structure.siteSpaces.find((s) => s.id === siteSpaceId);
  for (const s of model.structure.siteSpaces) if (s.id !== siteSpaceId) hidden.add(s.id);
  for (const s of model.structure.sections) if (s.id !== previewed?.section_id) hidden.add(s.id);
  return { ...model, hidden, previewOf: siteSpaceId };
}

/**
 * Id of the site `basename` of the organization `organization` names: by id when it has the shape of
 * one, else by hostname (stored lower-case, so found whatever its case). Never both: no hostname has
 * an id's shape (src/api/organizations/service.ts, and migration 0021 cleared older ones), so an
 * organization's id always names that organization, whatever another one calls itself.
 */
export async function findSiteId(db: Db, organization: string, basename: string): Promise<string | null> {
  const row = await db
    .selectFrom('sites')
    .innerJoin('organizations', 'organizations.id', 'sites.organization_id')
    .select('sites.id')
    .where(
      looksLikeId(organization)
        ? (eb) => eb('organizations.id', '=', organization)
        : (eb) => eb('organizations.hostname', '=', organization.toLowerCase()),
    )
    .where('sites.basename', '=', basename)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A site served on a host of its own: through its proxy origin, or its (organization's) custom hostname. */
export interface HostSite {
  siteId: string;
  /** The path the site is served under on that host (`/docs`), without a trailing slash. */
  basePath: string;
  /** Proxy origins first, then the site's own hostname, then the organization's. */
  rank: number;
}

/**
 * Every site served on `host`, all of the one organization that owns it (src/sites/hosts.ts; none
 * when nobody or several claim it): those with a proxy origin `host/…` (at the proxy's path), and at
 * `/<basename>` those whose custom hostname, or whose organization's, is `host`.
 */
export async function sitesOnHost(db: Db, host: string): Promise<HostSite[]> {
  const owners = await hostOwners(db, host);
  if (owners.length !== 1) return [];
  const owner = owners[0] as string;
  // The owner's proxies (an organization has few), those on this host picked here: the range
  // `host/` ≤ proxy < `host0` used before holds only under a bytewise collation of the database.
  const [proxies, named] = await Promise.all([
    db
      .selectFrom('sites')
      .select(['id', 'proxy'])
      .where('organization_id', '=', owner)
      .where('proxy', 'is not', null)
      .execute(),
    db
      .selectFrom('sites')
      .innerJoin('organizations', 'organizations.id', 'sites.organization_id')
      .select(['sites.id', 'sites.hostname', 'sites.basename'])
      .where('sites.organization_id', '=', owner)
      .where((eb) =>
        eb.or([
          eb('sites.hostname', '=', host),
          eb.and([eb('sites.hostname', 'is', null), eb('organizations.custom_hostname', '=', host)]),
        ]),
      )
      .execute(),
  ]);
  const proxied = proxies.filter((r) => r.proxy?.startsWith(`${host}/`));
  return [
    ...proxied.map((r) => ({ siteId: r.id, basePath: (r.proxy ?? '').slice(host.length), rank: 0 })),
    ...named.map((r) => ({ siteId: r.id, basePath: `/${r.basename}`, rank: r.hostname === host ? 1 : 2 })),
  ];
}

/** The site of `sites` whose base path is the longest prefix of `path` (segment-wise). */
export function matchHostSite(sites: HostSite[], path: string): HostSite | null {
  let best: HostSite | null = null;
  for (const site of sites) {
    const inside = path === site.basePath || path.startsWith(`${site.basePath}/`);
    if (!inside) continue;
    if (
      !best ||
      site.basePath.length > best.basePath.length ||
      (site.basePath.length === best.basePath.length && site.rank < best.rank)
    ) {
      best = site;
    }
  }
  return best;
}

/** Loads the model of `siteId` (null when the site does not exist). */
export async function loadSiteModel(db: Db, siteId: string, secrets: () => Promise<Buffer>): Promise<SiteModel | null> {
  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (!site) return null;
  const [org, structure, redirects, links, auth] = await Promise.all([
    db
      .selectFrom('organizations')
      .select(['id', 'hostname', 'custom_hostname'])
      .where('id', '=', site.organization_id)
      .executeTakeFirstOrThrow(),
    loadStructure(db, site.id),
    db.selectFrom('site_redirects').selectAll().where('site_id', '=', site.id).orderBy('id').execute(),
    db.selectFrom('site_share_links').select('key').where('site_id', '=', site.id).where('active', '=', 1).execute(),
    db.selectFrom('site_publishing_auth').selectAll().where('site_id', '=', site.id).executeTakeFirst(),
  ]);
  const spaceIds = [...new Set(structure.siteSpaces.map((s) => s.space_id))];
  const spaceRows =
    spaceIds.length === 0
      ? []
      : await db
          .selectFrom('spaces')
          .selectAll()
          .where('id', 'in', spaceIds)
          .where('deleted_at', 'is', null)
          .where('organization_id', '=', site.organization_id)
          .execute();
  const gitSync = await gitSyncOf(
    db,
    spaceRows.map((s) => s.id),
  );
  // Page conditions are part of the live revisions, which the version key names already.
  const pageConditions = await loadPageConditions(db, spaceRows);
  const visitorAuth = auth
    ? {
        backend: auth.backend,
        privateKey: decryptSecret(await secrets(), auth.private_key, site.id),
        fallbackUrl: auth.fallback_url,
        logoutUrl: auth.logout_url,
      }
    : null;
  const shareKeys = new Set(links.map((l) => l.key).sort());
  const version = createHash('sha256')
    .update(
      JSON.stringify([
        site,
        org,
        structure.groups,
        structure.sections,
        structure.siteSpaces,
        structure.links,
        spaceRows.map((s) => [s.id, s.revision_id, s.title, s.emoji, s.updated_at]).sort(),
        [...gitSync.values()].map((g) => [g.space_id, g.provider, g.repo_url, g.ref, g.project_directory]).sort(),
        redirects,
        [...shareKeys],
        auth ? [auth.updated_at, auth.fallback_url, auth.private_key] : null,
      ]),
    )
    .digest('base64url')
    .slice(0, 22);
  return {
    site,
    org,
    structure,
    spaces: new Map(spaceRows.map((s) => [s.id, s])),
    gitSync,
    redirects,
    shareKeys,
    visitorAuth,
    pageConditions,
    headerConditions: headerConditions(site, structure.siteSpaces),
    version,
    hidden: new Set(),
  };
}
