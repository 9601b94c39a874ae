/** Table types of docs sites and their structure, redirects, share links, visitor authentication. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';
import type { Bool } from './types.js';

/** A docs site of an organization. */
export interface SitesTable {
  id: string;
  organization_id: string;
  /** Site type (`basic`, `premium`, ...). */
  type: string;
  title: string;
  /** Path segment of the published site; unique within the organization. */
  basename: string;
  /** Custom hostname of the site; null: published under the organization's address. */
  hostname: string | null;
  /** Proxy origin (a URL without scheme, e.g. `example.com/docs`); null: no proxy. */
  proxy: string | null;
  visibility: string;
  published: Bool;
  adaptive_content: Bool;
  /** Ads review status (`pending`, `in-review`, `live`, `rejected`, `disabled`). */
  ads_status: string;
  /** Set when the site is submitted for ads review (0008_ads). */
  ads_topic: string | null;
  /** E-mail of who submitted the site, for the partner to reach. */
  ads_email: string | null;
  ads_zone_id: string | null;
  ads_reporting_id: string | null;
  /** Why the partner rejected the site. */
  ads_reason: string | null;
  /** JSON customization settings; null: the defaults. */
  customization: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A group of sections. Groups and the sections outside any group are the top level of a site's
 * structure and share one sequence of 0-based `position`s.
 */
export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  /** null: at the top level of the site. */
  group_id: string | null;
  title: string;
  description: string | null;
  /** Unique within the site. */
  path: string;
  icon: string | null;
  condition: string | null;
  /** Exactly one section of a site that has sections is the default. */
  is_default: Bool;
  /** Order among the siblings: inside the group, or at the top level with the groups. */
  position: number;
  created_at: string;
  updated_at: string;
}

/** A space published on a site, at the root of the site (no section) or in one section. */
export interface SiteSpacesTable {
  id: string;
  site_id: string;
  /** null: at the root of a site without sections. */
  section_id: string | null;
  space_id: string;
  /** Unique within the section (or the root). */
  path: string;
  condition: string | null;
  /** Exactly one site space of each section (or of the root) is the default. */
  is_default: Bool;
  /** Order within the section (or the root), 0-based. */
  position: number;
  /** JSON customization overrides of the site's settings; null: none. */
  customization: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * An external link of a site's navigation (0030): at the top level (sharing its sequence of
 * positions with the sections and groups there) or in a section group (with its sections).
 */
export interface SiteExternalLinksTable {
  id: string;
  site_id: string;
  /** null: at the top level of the site. */
  group_id: string | null;
  title: string;
  /** JSON object, locale → title; null: none. */
  localized_title: string | null;
  description: string | null;
  /** JSON object, locale → description; null: none. */
  localized_description: string | null;
  icon: string | null;
  /** Absolute http(s) URL. */
  url: string;
  /** Draft links are left out of the published site. */
  draft: Bool;
  condition: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** The adaptive (visitor) JSON schema of a site (0030); no row: the site has none yet. */
export interface SiteAdaptiveSchemasTable {
  site_id: string;
  /** The JSON schema, as JSON text. */
  json_schema: string;
  updated_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  /** Unique within the site. */
  source: string;
  /** `site-section`, `site-space` or `external`. */
  destination_kind: string;
  /** Section or site-space id for the internal kinds. */
  destination_id: string | null;
  /** URL of an `external` destination. */
  destination_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  /** The secret visitors present; unique across all sites. */
  key: string;
  active: Bool;
  created_at: string;
}

/** Visitor authentication settings of a site (0009_site_publishing). */
export interface SitePublishingAuthTable {
  site_id: string;
  /** `custom` or `integration`. */
  backend: string;
  /** The HS256 key visitors' JWTs are signed with, sealed with the secrets key (aad: the site id). */
  private_key: string;
  /** Where a visitor without a valid token is sent (the login URL); null: a 401 page. */
  fallback_url: string | null;
  logout_url: string | null;
  created_at: string;
  updated_at: string;
}

export type SiteRow = Selectable<SitesTable>;
export type SiteSectionGroupRow = Selectable<SiteSectionGroupsTable>;
export type SiteSectionRow = Selectable<SiteSectionsTable>;
export type SiteSpaceRow = Selectable<SiteSpacesTable>;
export type SiteExternalLinkRow = Selectable<SiteExternalLinksTable>;
export type SiteAdaptiveSchemaRow = Selectable<SiteAdaptiveSchemasTable>;
export type SiteRedirectRow = Selectable<SiteRedirectsTable>;
export type SiteShareLinkRow = Selectable<SiteShareLinksTable>;
export type SitePublishingAuthRow = Selectable<SitePublishingAuthTable>;

/**
 * A custom hostname a site claims (one per site), served once a DNS TXT record proves it
 * (`verified_at`; the site's `hostname` is then this one). Stored lower-case.
 */
export interface CustomHostnamesTable {
  site_id: string;
  organization_id: string;
  hostname: string;
  /** The value the TXT record must hold (src/lib/dns.ts). */
  token: string;
  verified_at: string | null;
  created_at: string;
}
export type CustomHostnameRow = Selectable<CustomHostnamesTable>;
