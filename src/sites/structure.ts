/**
 * A site's structure, loaded whole: section groups, sections, external links and site spaces in
 * display order.
 * Sites hold a handful to a few hundred of these, so every operation that reads or rearranges the
 * structure loads it in three queries and works in memory.
 *
 * Shape rules the repositories keep:
 * - a site without sections has its site spaces at the root (`section_id` null); once it has sections,
 *   every site space is in one;
 * - the top level is the sections outside any group, the groups and the external links outside any
 *   group, in one order; a group's sections and external links share its order;
 * - each container (the root, or a section) with site spaces has exactly one default site space, and
 *   a site with sections has exactly one default section.
 */
import type { Db } from '../db/database.js';
import { forUpdate } from '../db/dialect.js';
import type { SiteExternalLinkRow, SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from '../db/schema.js';

/** An item of a group: a section or an external link. */
export type GroupChild = { kind: 'section'; row: SiteSectionRow } | { kind: 'link'; row: SiteExternalLinkRow };

export type TopItem =
  | GroupChild
  | { kind: 'group'; row: SiteSectionGroupRow; sections: SiteSectionRow[]; children: GroupChild[] };

export interface Structure {
  groups: SiteSectionGroupRow[];
  /** Every section, in display order (top level, a group's sections where the group stands). */
  sections: SiteSectionRow[];
  /** Every site space, in display order (section by section). */
  siteSpaces: SiteSpaceRow[];
  /** Every external link, in display order. */
  links: SiteExternalLinkRow[];
  top: TopItem[];
  hasSections: boolean;
  sectionById: Map<string, SiteSectionRow>;
  groupById: Map<string, SiteSectionGroupRow>;
  siteSpaceById: Map<string, SiteSpaceRow>;
  linkById: Map<string, SiteExternalLinkRow>;
  /** Site spaces of a section (or of the root: null), in order. */
  siteSpacesIn(sectionId: string | null): SiteSpaceRow[];
  /** Sections of a group, in order. */
  sectionsIn(groupId: string): SiteSectionRow[];
  /** Sections and external links of a group, in order. */
  childrenOf(groupId: string): GroupChild[];
}

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || a.id.localeCompare(b.id);

/**
 * Loads the structure of `siteId`. Inside a transaction the site row is locked first, so that changes
 * to one site's structure (each of which reads it, then writes) run one after the other.
 */
export async function loadStructure(db: Db, siteId: string): Promise<Structure> {
  if (db.isTransaction) {
    await forUpdate(db, db.selectFrom('sites').select('id').where('id', '=', siteId)).execute();
  }
  const [groups, sections, siteSpaces, links] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_external_links').selectAll().where('site_id', '=', siteId).execute(),
  ]);
  groups.sort(byPosition);
  sections.sort(byPosition);
  siteSpaces.sort(byPosition);
  links.sort(byPosition);
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const inGroup = (groupId: string) => sections.filter((s) => s.group_id === groupId);
  const grouped = (groupId: string | null) => (row: { group_id: string | null }) =>
    groupId === null ? !row.group_id || !groupById.has(row.group_id) : row.group_id === groupId;
  /** Sections and links of a group (null: outside any group), by position. */
  const childrenIn = (groupId: string | null): GroupChild[] =>
    [
      ...sections.filter(grouped(groupId)).map((row) => ({ kind: 'section' as const, row })),
      ...links.filter(grouped(groupId)).map((row) => ({ kind: 'link' as const, row })),
    ].sort((a, b) => byPosition(a.row, b.row));
  const top: TopItem[] = [
    ...childrenIn(null),
    ...groups.map((row) => ({ kind: 'group' as const, row, sections: inGroup(row.id), children: childrenIn(row.id) })),
  ];
  top.sort((a, b) => byPosition(a.row, b.row));
  const orderedSections = top.flatMap((item) =>
    item.kind === 'section' ? [item.row] : item.kind === 'group' ? item.sections : [],
  );
  const orderedLinks = top.flatMap((item) =>
    item.kind === 'link'
      ? [item.row]
      : item.kind === 'group'
        ? item.children.flatMap((c) => (c.kind === 'link' ? [c.row] : []))
        : [],
  );
  const sectionRank = new Map(orderedSections.map((s, i) => [s.id, i]));
  const orderedSiteSpaces = [...siteSpaces].sort(
    (a, b) =>
      (a.section_id ? (sectionRank.get(a.section_id) ?? -1) : -1) -
        (b.section_id ? (sectionRank.get(b.section_id) ?? -1) : -1) || byPosition(a, b),
  );
  return {
    groups,
    sections: orderedSections,
    siteSpaces: orderedSiteSpaces,
    links: orderedLinks,
    top,
    hasSections: sections.length > 0,
    sectionById: new Map(sections.map((s) => [s.id, s])),
    groupById,
    siteSpaceById: new Map(siteSpaces.map((s) => [s.id, s])),
    linkById: new Map(links.map((l) => [l.id, l])),
    siteSpacesIn: (sectionId) => orderedSiteSpaces.filter((s) => s.section_id === sectionId),
    sectionsIn: inGroup,
    childrenOf: childrenIn,
  };
}
