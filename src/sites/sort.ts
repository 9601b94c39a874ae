/**
 * The generic move of the official `sortSiteStructure`: a site space, section, section group or
 * external link placed before/after a sibling of the same structure level (a site space among the
 * site spaces of its section, or of the root; a section or external link among the items of its
 * group, or of the top level; a group at the top level), or at the end of that level. It changes
 * sibling order only: a pointer that is not a sibling is a 400 naming the field.
 */
import type { Db } from '../db/database.js';
import { notFound } from '../lib/errors.js';
import { changedPositions, type KeyPosition, placeKey, type Sibling, splitKey } from './order.js';
import { groupKey, groupSiblings, linkKey, sectionKey, topSiblings, writeOrder } from './sections.js';
import type { Structure } from './structure.js';

export type StructureItemType = 'site-space' | 'site-section' | 'site-section-group' | 'site-external-link';
export interface StructurePointer {
  type: StructureItemType;
  id: string;
}

const siteSpaceKey = (id: string) => `site-space:${id}`;

/** The order key of a pointer (the prefixes of `sections.ts` and `site-spaces.ts`). */
function keyOf(pointer: StructurePointer): string {
  switch (pointer.type) {
    case 'site-space':
      return siteSpaceKey(pointer.id);
    case 'site-section':
      return sectionKey(pointer.id);
    case 'site-section-group':
      return groupKey(pointer.id);
    case 'site-external-link':
      return linkKey(pointer.id);
  }
}

/** The siblings of the item, itself included; 404 when it is not an item of the site. */
function siblingsOf(structure: Structure, item: StructurePointer): Sibling[] {
  const inContainer = (groupId: string | null) =>
    groupId !== null && structure.groupById.has(groupId) ? groupSiblings(structure, groupId) : topSiblings(structure);
  switch (item.type) {
    case 'site-space': {
      const row = structure.siteSpaceById.get(item.id);
      if (!row) break;
      return structure.siteSpacesIn(row.section_id).map((s) => ({ key: siteSpaceKey(s.id), position: s.position }));
    }
    case 'site-section': {
      const row = structure.sectionById.get(item.id);
      if (!row) break;
      return inContainer(row.group_id);
    }
    case 'site-section-group':
      if (!structure.groupById.has(item.id)) break;
      return topSiblings(structure);
    case 'site-external-link': {
      const row = structure.linkById.get(item.id);
      if (!row) break;
      return inContainer(row.group_id);
    }
  }
  throw notFound(`${item.type} ${item.id} not found in this site`);
}

/** Moves `item` before/after the sibling `position` names, or to the end of its level. */
export async function sortStructureItem(
  db: Db,
  structure: Structure,
  item: StructurePointer,
  position: { before?: StructurePointer; after?: StructurePointer },
): Promise<void> {
  const siblings = siblingsOf(structure, item);
  const wanted: KeyPosition = {
    ...(position.before ? { before: keyOf(position.before) } : {}),
    ...(position.after ? { after: keyOf(position.after) } : {}),
  };
  const ordered = placeKey(siblings, keyOf(item), wanted);
  if (item.type !== 'site-space') return writeOrder(db, siblings, ordered);
  for (const change of changedPositions(siblings, ordered)) {
    await db
      .updateTable('site_spaces')
      .set({ position: change.position })
      .where('id', '=', splitKey(change.key)[1])
      .execute();
  }
}
