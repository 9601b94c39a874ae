/**
 * Adaptive content beyond sections and site spaces: the conditions of pages (stored in each
 * revision's page tree) and of the customization's header items. The site model gathers every
 * condition of the site when it is loaded, so that what a visitor may not see is decided once per
 * request ({@link SiteModel.hidden}, src/published/model.ts) and keys the render cache; the reader
 * and the page shell then leave out what is hidden.
 */
import { flattenPages, loadRevision, type PageNode } from '../content/store.js';
import type { Db } from '../db/database.js';
import type { SiteRow, SiteSpaceRow, SpaceRow } from '../db/schema.js';
import { siteCustomization, siteSpaceCustomization } from '../sites/customization.js';
import type { CustomizationObject } from '../sites/customization-schema.js';

/** The entry of a page in a model's `hidden` set (page ids are unique within a space only). */
export function pageKey(spaceId: string, pageId: string): string {
  return `page:${spaceId}/${pageId}`;
}

/**
 * The entry of a header item's condition in a model's `hidden` set: whether an item shows depends
 * only on its expression and the visitor, so the expression itself names it.
 */
export function headerKey(condition: string): string {
  return `header:${condition}`;
}

/** Page conditions of a revision, by page id; revisions never change, so this is kept per revision. */
const byRevision = new Map<string, ReadonlyMap<string, string>>();

function conditionsOf(pages: PageNode[]): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const { page } of flattenPages(pages)) if (page.condition) out.set(page.id, page.condition);
  return out;
}

/** The page conditions of the live revision of each space, by space id (spaces without any are left out). */
export async function loadPageConditions(
  db: Db,
  spaces: SpaceRow[],
): Promise<Map<string, ReadonlyMap<string, string>>> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  for (const space of spaces) {
    let conditions = byRevision.get(space.revision_id);
    if (!conditions) {
      const snapshot = await loadRevision(db, space, space.revision_id);
      conditions = snapshot ? conditionsOf(snapshot.pages) : new Map();
      byRevision.set(space.revision_id, conditions);
      if (byRevision.size > 4096) byRevision.delete(byRevision.keys().next().value as string);
    }
    if (conditions.size > 0) out.set(space.id, conditions);
  }
  return out;
}

/** Every distinct condition of a header item, in the site's customization or a site space's. */
export function headerConditions(site: SiteRow, siteSpaces: SiteSpaceRow[]): string[] {
  const all = [siteCustomization(site), ...siteSpaces.map((s) => siteSpaceCustomization(site, s))];
  const out = new Set<string>();
  for (const customization of all) {
    for (const item of customization.header.links) if (item.condition?.trim()) out.add(item.condition);
  }
  return [...out];
}

/** The customization with the header items whose condition does not hold for the visitor left out. */
export function withoutHiddenHeaderItems(
  customization: CustomizationObject,
  hidden: ReadonlySet<string>,
): CustomizationObject {
  if (hidden.size === 0) return customization;
  const links = customization.header.links.filter((item) => !item.condition || !hidden.has(headerKey(item.condition)));
  return links.length === customization.header.links.length
    ? customization
    : { ...customization, header: { ...customization.header, links } };
}

/** The page tree without the pages in `hidden` (and so without their subpages). */
export function prunePages(pages: PageNode[], hidden: ReadonlySet<string>): PageNode[] {
  return pages.filter((p) => !hidden.has(p.id)).map((p) => ({ ...p, children: prunePages(p.children, hidden) }));
}
