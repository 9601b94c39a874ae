import type { Static } from 'typebox';
import type { SiteRedirectRow } from '../../../db/schema.js';
import type { Structure } from '../../../sites/structure.js';
import type { PublishedUrls } from '../../../sites/urls.js';
import type { Destination } from './repo.js';
import type { SiteRedirect } from './schemas.js';

export function presentDestination(row: SiteRedirectRow): Destination {
  if (row.destination_kind === 'site-section')
    return { kind: 'site-section', siteSectionId: row.destination_id as string };
  if (row.destination_kind === 'site-space') return { kind: 'site-space', siteSpaceId: row.destination_id as string };
  return { kind: 'external', url: row.destination_url as string };
}

export function presentRedirect(row: SiteRedirectRow): Static<typeof SiteRedirect> {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    destination: presentDestination(row),
    draft: false,
    captureWildcard: false,
    permanent: false,
    createdAt: row.created_at,
    ...(row.updated_at !== row.created_at ? { updatedAt: row.updated_at } : {}),
  };
}

/**
 * The absolute URL a redirect leads to on the published site; undefined when its destination is gone
 * (deleting a section or site space deletes its redirects, so this only guards against races).
 */
export function redirectTarget(row: SiteRedirectRow, structure: Structure, urls: PublishedUrls): string | undefined {
  const destination = presentDestination(row);
  if (destination.kind === 'external') return destination.url;
  if (destination.kind === 'site-section') {
    const section = structure.sectionById.get(destination.siteSectionId);
    return section ? urls.targetOfSection(section) : undefined;
  }
  const siteSpace = structure.siteSpaceById.get(destination.siteSpaceId);
  if (!siteSpace) return undefined;
  const section = siteSpace.section_id ? structure.sectionById.get(siteSpace.section_id) : null;
  return urls.targetOfSiteSpace(siteSpace, section);
}
