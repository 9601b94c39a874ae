/**
 * The objects of a site's structure (site spaces, sections, section groups), presented from the
 * {@link SiteView} loaded for the request: pure functions, shared by the sub-areas that return them
 * and by the published profile.
 */
import type { Static } from 'typebox';
import type {
  SiteExternalLinkRow,
  SiteRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteSpaceRow,
} from '../../../db/schema.js';
import type { GroupChild } from '../../../sites/structure.js';
import type { SpaceObject } from '../../spaces/present.js';
import type { SiteView } from './context.js';
import type { SiteAds, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace } from './schemas.js';

type SiteAdsObject = Static<typeof SiteAds>;

export type SiteSpaceObject = Static<typeof SiteSpace>;
export type SiteSectionObject = Static<typeof SiteSection>;
export type SiteSectionGroupObject = Static<typeof SiteSectionGroup>;
export type SiteExternalLinkObject = Static<typeof SiteExternalLink>;

const parsed = (text: string | null) => (text === null ? undefined : (JSON.parse(text) as Record<string, string>));

/** The Site external link object. */
export function presentExternalLink(row: SiteExternalLinkRow): SiteExternalLinkObject {
  const localizedTitle = parsed(row.localized_title);
  const localizedDescription = parsed(row.localized_description);
  return {
    object: 'site-external-link',
    id: row.id,
    title: row.title,
    ...(localizedTitle ? { localizedTitle } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(localizedDescription ? { localizedDescription } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    url: row.url,
    ...(row.group_id !== null ? { sectionGroup: row.group_id } : {}),
    draft: row.draft === 1,
    ...(row.condition !== null ? { condition: row.condition } : {}),
  };
}

/**
 * Which external links a structure shows: all of them to the API's `getSiteStructure`; the published
 * profile leaves drafts out (the official document: "Draft links … are omitted from published
 * structure responses").
 */
export interface StructureOptions {
  withDrafts?: boolean;
}

function presentChild(child: GroupChild, view: SiteView) {
  return child.kind === 'section' ? presentSection(child.row, view) : presentExternalLink(child.row);
}

const shown = (options: StructureOptions) => (item: { kind: string; row: object }) =>
  options.withDrafts !== false || item.kind !== 'link' || (item.row as SiteExternalLinkRow).draft !== 1;

/** The Site space object; its Space is presented as the caller sees it. */
export function presentSiteSpace(row: SiteSpaceRow, view: SiteView): SiteSpaceObject {
  const section = row.section_id ? view.structure.sectionById.get(row.section_id) : null;
  const space = view.spaces.get(row.space_id) as SpaceObject;
  const published = view.urls.ofSiteSpace(row, section);
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(row.section_id ? { section: row.section_id } : {}),
    space,
    title: space.title,
    default: row.is_default === 1,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    draft: false,
    hasAdvancedCustomizationFeature: row.customization !== null,
    urls: published ? { published } : {},
  };
}

/** The Site section object, with its site spaces in order. */
export function presentSection(row: SiteSectionRow, view: SiteView): SiteSectionObject {
  const published = view.urls.ofSection(row);
  const inGroup = row.group_id !== null && view.structure.groupById.has(row.group_id);
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: row.is_default === 1,
    draft: false,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(inGroup ? { sectionGroup: row.group_id as string } : {}),
    siteSpaces: view.structure.siteSpacesIn(row.id).map((s) => presentSiteSpace(s, view)),
    urls: published ? { published } : {},
    ...(row.icon !== null ? { icon: row.icon } : {}),
  };
}

/** The Site section group object, with its sections (and, as `children`, its external links) in order. */
export function presentGroup(
  row: SiteSectionGroupRow,
  view: SiteView,
  options: StructureOptions = {},
): SiteSectionGroupObject {
  const sections = view.structure.sectionsIn(row.id).map((s) => presentSection(s, view));
  const children = view.structure
    .childrenOf(row.id)
    .filter(shown(options))
    .map((child) => presentChild(child, view));
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    ...(row.icon !== null ? { icon: row.icon } : {}),
    draft: false,
    sections,
    children,
  };
}

/** The site's structure (the official `SiteStructure`): sections, groups and external links, or its site spaces. */
export function presentStructure(view: SiteView, options: StructureOptions = {}) {
  const { structure } = view;
  return structure.hasSections
    ? {
        type: 'sections' as const,
        structure: structure.top
          .filter(shown(options))
          .map((item) => (item.kind === 'group' ? presentGroup(item.row, view, options) : presentChild(item, view))),
      }
    : { type: 'siteSpaces' as const, structure: structure.siteSpaces.map((s) => presentSiteSpace(s, view)) };
}

/**
 * The `ads` field. Only a `pending` site carries `submittable`: it can be submitted for review once it
 * is published and public (ads need an audience search engines can reach).
 */
export function presentAds(site: SiteRow): SiteAdsObject {
  const status = site.ads_status as SiteAdsObject['status'];
  if (status === 'pending') return { status, submittable: site.published === 1 && site.visibility === 'public' };
  if (status === 'rejected') return { status, ...(site.ads_reason ? { reason: site.ads_reason } : {}) };
  return {
    status,
    ...(site.ads_topic ? { topic: site.ads_topic } : {}),
    ...(status !== 'in-review' && site.ads_zone_id ? { zoneId: site.ads_zone_id } : {}),
  };
}
