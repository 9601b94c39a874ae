/**
 * Published URLs of a site and of everything on it — the one place that builds them, so the Site,
 * its sections, site spaces, share links and redirect targets always agree.
 *
 * The base address of a site is, in order of precedence:
 * 1. its proxy origin, `https://<proxy>` (the proxy serves the whole site under that path);
 * 2. its hostname (the site's own, else the organization's custom hostname), `https://<hostname>/<basename>`;
 * 3. `<PUBLIC_URL>/sites/<organization hostname or id>/<basename>`.
 * A section adds `/<section path>` unless it is the default section; a site space adds
 * `/<site-space path>` to its section's (or the base) address unless it is the default of its section
 * (or of the root). With a share key, `?share=<key>` is appended, which is how visitors open a
 * `share-link` site.
 *
 * `urls.published` of the site, its sections and site spaces are only given once the site is published.
 */

import type { OrganizationRow, SiteRow, SiteSectionRow, SiteSpaceRow } from '../db/schema.js';
import type { Urls } from '../lib/urls.js';

export type SiteOrganization = Pick<OrganizationRow, 'id' | 'hostname' | 'custom_hostname'>;

const segment = (value: string) => encodeURIComponent(value);

/** The address the site is served at (proxy aside), e.g. `http://host/sites/acme/docs`. */
export function directBase(site: Pick<SiteRow, 'basename' | 'hostname'>, org: SiteOrganization, urls: Urls): string {
  const hostname = site.hostname ?? org.custom_hostname;
  if (hostname) return `https://${hostname}/${segment(site.basename)}`;
  return urls.app(`/sites/${segment(org.hostname ?? org.id)}/${segment(site.basename)}`);
}

/** The hostname shown on the Site object, if any. */
export function siteHostname(site: Pick<SiteRow, 'hostname'>, org: SiteOrganization): string | undefined {
  return site.hostname ?? org.custom_hostname ?? undefined;
}

export class PublishedUrls {
  readonly base: string;

  /**
   * @param shareKey the key of an active share link of this site, or null. It is only used for
   * `share-link` sites (other sites are opened without one).
   */
  constructor(
    readonly site: SiteRow,
    org: SiteOrganization,
    urls: Urls,
    private readonly shareKey: string | null = null,
  ) {
    this.base = site.proxy ? `https://${site.proxy}` : directBase(site, org, urls);
  }

  /** Whether `urls.published` is given at all (the site is live). */
  get live(): boolean {
    return this.site.published === 1;
  }

  private withKey(url: string, key: string | null): string {
    return key ? `${url}?share=${segment(key)}` : url;
  }

  private finish(url: string): string | undefined {
    if (!this.live) return undefined;
    return this.withKey(url, this.site.visibility === 'share-link' ? this.shareKey : null);
  }

  private sectionAddress(section: Pick<SiteSectionRow, 'path' | 'is_default'> | null | undefined): string {
    if (!section || section.is_default === 1) return this.base;
    return `${this.base}/${segment(section.path)}`;
  }

  private siteSpaceAddress(
    siteSpace: Pick<SiteSpaceRow, 'path' | 'is_default'>,
    section: Pick<SiteSectionRow, 'path' | 'is_default'> | null | undefined,
  ): string {
    const container = this.sectionAddress(section);
    return siteSpace.is_default === 1 ? container : `${container}/${segment(siteSpace.path)}`;
  }

  /** `urls.published` of the Site. */
  ofSite(): string | undefined {
    return this.finish(this.base);
  }

  /** `urls.published` of a section. */
  ofSection(section: Pick<SiteSectionRow, 'path' | 'is_default'>): string | undefined {
    return this.finish(this.sectionAddress(section));
  }

  /** `urls.published` of a site space (in `section`, or at the root when null). */
  ofSiteSpace(
    siteSpace: Pick<SiteSpaceRow, 'path' | 'is_default'>,
    section: Pick<SiteSectionRow, 'path' | 'is_default'> | null | undefined,
  ): string | undefined {
    return this.finish(this.siteSpaceAddress(siteSpace, section));
  }

  /** Where a share link opens the site: always given, it is what its holder is handed. */
  ofShareLink(key: string): string {
    return this.withKey(this.base, key);
  }

  /** Absolute URL of a redirect destination, live or not (a redirect is resolved ahead of publishing too). */
  targetOfSection(section: Pick<SiteSectionRow, 'path' | 'is_default'>): string {
    return this.withKey(this.sectionAddress(section), this.site.visibility === 'share-link' ? this.shareKey : null);
  }

  targetOfSiteSpace(
    siteSpace: Pick<SiteSpaceRow, 'path' | 'is_default'>,
    section: Pick<SiteSectionRow, 'path' | 'is_default'> | null | undefined,
  ): string {
    return this.withKey(
      this.siteSpaceAddress(siteSpace, section),
      this.site.visibility === 'share-link' ? this.shareKey : null,
    );
  }
}
