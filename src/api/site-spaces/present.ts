import type { Static } from 'typebox';
import type { SiteSpaceRow } from '../../db/schema.js';
import type { SiteView } from '../sites/context.js';
import type { SpaceObject } from '../spaces/present.js';
import type { SiteSpace } from './schemas.js';

export type SiteSpaceObject = Static<typeof SiteSpace>;

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
