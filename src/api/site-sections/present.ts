import type { Static } from 'typebox';
import type { SiteSectionGroupRow, SiteSectionRow } from '../../db/schema.js';
import { presentSiteSpace } from '../site-spaces/present.js';
import type { SiteView } from '../sites/context.js';
import type { SiteSection, SiteSectionGroup } from './schemas.js';

export type SiteSectionObject = Static<typeof SiteSection>;
export type SiteSectionGroupObject = Static<typeof SiteSectionGroup>;

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

/** The Site section group object, with its sections in order. */
export function presentGroup(row: SiteSectionGroupRow, view: SiteView): SiteSectionGroupObject {
  const sections = view.structure.sectionsIn(row.id).map((s) => presentSection(s, view));
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    ...(row.icon !== null ? { icon: row.icon } : {}),
    draft: false,
    sections,
    children: sections,
  };
}
