/**
 * A site's structure, loaded whole: section groups, sections and site spaces in display order.
 * Sites hold a handful to a few hundred of these, so every operation that reads or rearranges the
 * structure loads it in three queries and works in memory.
 *
 * Shape rules the repositories keep:
 * - a site without sections has its site spaces at the root (`section_id` null); once it has sections,
 *   every site space is in one;
 * - the top level is the sections outside any group plus the groups, in one order;
 * - each container (the root, or a section) with site spaces has exactly one default site space, and
 *   a site with sections has exactly one default section.
 */
import type { Db } from '../db/database.js';
import { forUpdate } from '../db/dialect.js';
import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from '../db/schema.js';

export type TopItem =
  | { kind: 'section'; row: SiteSectionRow }
  | { kind: 'group'; row: SiteSectionGroupRow; sections: SiteSectionRow[] };

export interface Structure {
  groups: SiteSectionGroupRow[];
  /** Every section, in display order (top level, a group's sections where the group stands). */
  sections: SiteSectionRow[];
  /** Every site space, in display order (section by section). */
  siteSpaces: SiteSpaceRow[];
  top: TopItem[];
  hasSections: boolean;
  sectionById: Map<string, SiteSectionRow>;
  groupById: Map<string, SiteSectionGroupRow>;
  siteSpaceById: Map<string, SiteSpaceRow>;
  /** Site spaces of a section (or of the root: null), in order. */
  siteSpacesIn(sectionId: string | null): SiteSpaceRow[];
  /** Sections of a group, in order. */
  sectionsIn(groupId: string): SiteSectionRow[];
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
  const [groups, sections, siteSpaces] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).execute(),
  ]);
  groups.sort(byPosition);
  sections.sort(byPosition);
  siteSpaces.sort(byPosition);
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const inGroup = (groupId: string) => sections.filter((s) => s.group_id === groupId);
  const top: Array<TopItem & { position: number; id: string }> = [
    ...sections
      .filter((s) => !s.group_id || !groupById.has(s.group_id))
      .map((row) => ({ kind: 'section' as const, row, position: row.position, id: row.id })),
    ...groups.map((row) => ({
      kind: 'group' as const,
      row,
      sections: inGroup(row.id),
      position: row.position,
      id: row.id,
    })),
  ];
  top.sort(byPosition);
  const orderedSections = top.flatMap((item) => (item.kind === 'section' ? [item.row] : item.sections));
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
    top: top.map(({ position: _p, id: _i, ...item }) => item as TopItem),
    hasSections: sections.length > 0,
    sectionById: new Map(sections.map((s) => [s.id, s])),
    groupById,
    siteSpaceById: new Map(siteSpaces.map((s) => [s.id, s])),
    siteSpacesIn: (sectionId) => orderedSiteSpaces.filter((s) => s.section_id === sectionId),
    sectionsIn: inGroup,
  };
}
