/**
 * Sections and section groups: adding, changing, moving and removing them while keeping the
 * structure's rules (see `structure.ts`): unique section paths per site, one default section,
 * the top level (sections outside groups + groups) and each group in their own order.
 * Functions take the {@link Structure} loaded on the caller's transaction before the change.
 */

import type { Db } from '../db/database.js';
import type { SiteRow, SiteSectionGroupRow, SiteSectionRow, SpaceRow } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { endPosition } from '../lib/order.js';
import { SITE_SLUG_LENGTH, slugify, uniqueSlug } from '../lib/slug.js';
import { nowIso } from '../lib/time.js';
import { changedPositions, type KeyPosition, placeKey, type Sibling, splitKey } from './order.js';
import { deleteSiteSpaces, insertSiteSpace, makeDefaultSiteSpace } from './site-spaces.js';
import type { Structure, TopItem } from './structure.js';

export const sectionKey = (id: string) => `section:${id}`;
export const groupKey = (id: string) => `group:${id}`;
export const linkKey = (id: string) => `link:${id}`;

const childKey = (item: TopItem) =>
  item.kind === 'section'
    ? sectionKey(item.row.id)
    : item.kind === 'group'
      ? groupKey(item.row.id)
      : linkKey(item.row.id);

/** The top level as siblings: sections and external links outside groups, and groups. */
export function topSiblings(structure: Structure): Sibling[] {
  return structure.top.map((item) => ({ key: childKey(item), position: item.row.position }));
}

/** A group's sections and external links as siblings. */
export function groupSiblings(structure: Structure, groupId: string): Sibling[] {
  return structure.childrenOf(groupId).map((item) => ({ key: childKey(item), position: item.row.position }));
}

const TABLES = { group: 'site_section_groups', section: 'site_sections', link: 'site_external_links' } as const;

/** Writes new positions for `ordered` (keys of sections, groups and external links). */
export async function writeOrder(db: Db, siblings: Sibling[], ordered: string[]): Promise<void> {
  for (const change of changedPositions(siblings, ordered)) {
    const [kind, id] = splitKey(change.key);
    const table = TABLES[kind as keyof typeof TABLES];
    await db.updateTable(table).set({ position: change.position }).where('id', '=', id).execute();
  }
}

export function sectionIn(structure: Structure, id: string): SiteSectionRow {
  const row = structure.sectionById.get(id);
  if (!row) throw notFound(`site section ${id} not found`);
  return row;
}

export function groupIn(structure: Structure, id: string): SiteSectionGroupRow {
  const row = structure.groupById.get(id);
  if (!row) throw notFound(`site section group ${id} not found`);
  return row;
}

/** Section titles are 2 to 128 characters; one made from a space title is fitted to that. */
function sectionTitleFrom(title: string): string {
  const trimmed = title.trim().slice(0, 128);
  return trimmed.length >= 2 ? trimmed : 'Section';
}

async function insertSection(
  db: Db,
  structure: Structure,
  siteId: string,
  fields: { title: string; icon: string | null; groupId: string | null; isDefault: boolean; takenPaths: string[] },
): Promise<SiteSectionRow> {
  const siblings = fields.groupId ? groupSiblings(structure, fields.groupId) : topSiblings(structure);
  const now = nowIso();
  const row: SiteSectionRow = {
    id: newId(),
    site_id: siteId,
    group_id: fields.groupId,
    title: fields.title,
    description: null,
    path: uniqueSlug(slugify(fields.title, { fallback: 'section', maxLength: SITE_SLUG_LENGTH }), fields.takenPaths),
    icon: fields.icon,
    condition: null,
    is_default: fields.isDefault ? 1 : 0,
    position: endPosition(siblings),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('site_sections').values(row).execute();
  return row;
}

/**
 * Adds a section holding `space` as its first (default) site space, at the end of the top level or
 * of `groupId`. The first section of a site that already has site spaces first gathers them into a
 * default section (titled after the site), so that every site space stays in a section.
 */
export async function addSection(
  db: Db,
  structure: Structure,
  site: SiteRow,
  space: Pick<SpaceRow, 'id' | 'title'>,
  fields: { title?: string | null; icon?: string | null; groupId?: string },
): Promise<SiteSectionRow> {
  if (fields.groupId !== undefined && !structure.groupById.has(fields.groupId)) {
    throw badRequest(`body/siteSectionGroupId: ${fields.groupId} is not a section group of this site`);
  }
  const takenPaths = structure.sections.map((s) => s.path);
  let hasDefault = structure.sections.some((s) => s.is_default === 1);
  let current = structure;
  if (!structure.hasSections && structure.siteSpaces.length > 0) {
    const first = await insertSection(db, structure, site.id, {
      title: sectionTitleFrom(site.title),
      icon: null,
      groupId: null,
      isDefault: true,
      takenPaths,
    });
    takenPaths.push(first.path);
    await db
      .updateTable('site_spaces')
      .set({ section_id: first.id })
      .where('site_id', '=', site.id)
      .where('section_id', 'is', null)
      .execute();
    hasDefault = true;
    // The new section goes after the one just made.
    current = { ...structure, top: [...structure.top, { kind: 'section', row: first }] };
  }
  const section = await insertSection(db, current, site.id, {
    title: fields.title ?? sectionTitleFrom(space.title),
    icon: fields.icon ?? null,
    groupId: fields.groupId ?? null,
    isDefault: !hasDefault,
    takenPaths,
  });
  await insertSiteSpace(db, site.id, space, section.id);
  return section;
}

/** Makes `section` the site's default section (and no other). */
export async function makeDefaultSection(db: Db, section: Pick<SiteSectionRow, 'id' | 'site_id'>): Promise<void> {
  await db
    .updateTable('site_sections')
    .set({ is_default: 0 })
    .where('site_id', '=', section.site_id)
    .where('id', '!=', section.id)
    .where('is_default', '=', 1)
    .execute();
  await db.updateTable('site_sections').set({ is_default: 1 }).where('id', '=', section.id).execute();
}

export async function updateSection(
  db: Db,
  structure: Structure,
  section: SiteSectionRow,
  patch: {
    title?: string;
    path?: string;
    description?: string | null;
    icon?: string | null;
    condition?: string | null;
    defaultSiteSpace?: string;
    siteSectionGroupId?: string | null;
  },
): Promise<void> {
  if (patch.path !== undefined && patch.path !== section.path) {
    if (structure.sections.some((s) => s.id !== section.id && s.path === patch.path)) {
      throw conflict(`body/path "${patch.path}" is already used by another section of this site`);
    }
  }
  if (patch.defaultSiteSpace !== undefined) {
    const siteSpace = structure.siteSpaceById.get(patch.defaultSiteSpace);
    if (!siteSpace || siteSpace.section_id !== section.id) {
      throw badRequest(`body/defaultSiteSpace: ${patch.defaultSiteSpace} is not a site space of this section`);
    }
    await makeDefaultSiteSpace(db, siteSpace);
  }
  const set: Partial<SiteSectionRow> = { updated_at: nowIso() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.path !== undefined) set.path = patch.path;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.icon !== undefined) set.icon = patch.icon;
  if (patch.condition !== undefined) set.condition = patch.condition;
  await db.updateTable('site_sections').set(set).where('id', '=', section.id).execute();
  if (patch.siteSectionGroupId !== undefined && patch.siteSectionGroupId !== section.group_id) {
    if (patch.siteSectionGroupId === null) await ungroupSection(db, structure, section);
    else
      await groupSection(
        db,
        structure,
        section,
        groupIn(structure, patch.siteSectionGroupId),
        'body/siteSectionGroupId',
      );
  }
}

/**
 * Deletes a section with its site spaces and the redirects to either; a deleted default section
 * hands the role to the first remaining section.
 */
export async function deleteSection(db: Db, structure: Structure, section: SiteSectionRow): Promise<void> {
  await deleteSiteSpaces(db, structure, structure.siteSpacesIn(section.id));
  await db
    .deleteFrom('site_redirects')
    .where('destination_kind', '=', 'site-section')
    .where('destination_id', '=', section.id)
    .execute();
  await db.deleteFrom('site_sections').where('id', '=', section.id).execute();
  if (section.is_default === 1) {
    const next = structure.sections.find((s) => s.id !== section.id);
    if (next) await makeDefaultSection(db, next);
  }
}

/** Moves a section before/after a sibling section in its container (group or top level), or to its end. */
export async function moveSection(
  db: Db,
  structure: Structure,
  section: SiteSectionRow,
  position: { before?: { siteSection: string }; after?: { siteSection: string } } | undefined,
): Promise<void> {
  const grouped = section.group_id !== null && structure.groupById.has(section.group_id);
  const siblings = grouped ? groupSiblings(structure, section.group_id as string) : topSiblings(structure);
  const wanted: KeyPosition = {
    ...(position?.before ? { before: sectionKey(position.before.siteSection) } : {}),
    ...(position?.after ? { after: sectionKey(position.after.siteSection) } : {}),
  };
  await writeOrder(db, siblings, placeKey(siblings, sectionKey(section.id), wanted));
}

/** Puts `section` at the end of `group`. */
async function groupSection(
  db: Db,
  structure: Structure,
  section: SiteSectionRow,
  group: SiteSectionGroupRow,
  field: string,
): Promise<void> {
  if (section.site_id !== group.site_id) throw badRequest(`${field}: not a section group of this site`);
  const position = endPosition(groupSiblings(structure, group.id).filter((s) => s.key !== sectionKey(section.id)));
  await db.updateTable('site_sections').set({ group_id: group.id, position }).where('id', '=', section.id).execute();
}

/** Takes `section` out of its group, to the top level right after the group. */
async function ungroupSection(db: Db, structure: Structure, section: SiteSectionRow): Promise<void> {
  const siblings = topSiblings(structure);
  const after = section.group_id && structure.groupById.has(section.group_id) ? groupKey(section.group_id) : undefined;
  await db.updateTable('site_sections').set({ group_id: null }).where('id', '=', section.id).execute();
  await writeOrder(db, siblings, placeKey(siblings, sectionKey(section.id), after ? { after } : undefined));
}

export async function addSectionToGroup(
  db: Db,
  structure: Structure,
  group: SiteSectionGroupRow,
  sectionId: string,
): Promise<void> {
  const section = structure.sectionById.get(sectionId);
  if (!section) throw badRequest(`body/sectionId: ${sectionId} is not a section of this site`);
  await groupSection(db, structure, section, group, 'body/sectionId');
}

export async function removeSectionFromGroup(
  db: Db,
  structure: Structure,
  group: SiteSectionGroupRow,
  sectionId: string,
): Promise<void> {
  const section = structure.sectionById.get(sectionId);
  if (!section || section.group_id !== group.id) throw notFound(`site section ${sectionId} is not in this group`);
  await ungroupSection(db, structure, section);
}

/** Creates a group at the end of the top level, holding `sectionIds` in that order. */
export async function createGroup(
  db: Db,
  structure: Structure,
  siteId: string,
  fields: { title: string; icon?: string | null; sections?: string[] },
): Promise<SiteSectionGroupRow> {
  const sectionIds = [...new Set(fields.sections ?? [])];
  const unknown = sectionIds.find((id) => !structure.sectionById.has(id));
  if (unknown) throw badRequest(`body/sections: ${unknown} is not a section of this site`);
  const now = nowIso();
  const row: SiteSectionGroupRow = {
    id: newId(),
    site_id: siteId,
    title: fields.title,
    icon: fields.icon ?? null,
    position: endPosition(topSiblings(structure)),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('site_section_groups').values(row).execute();
  for (const [position, id] of sectionIds.entries()) {
    await db.updateTable('site_sections').set({ group_id: row.id, position }).where('id', '=', id).execute();
  }
  return row;
}

export async function updateGroup(
  db: Db,
  group: SiteSectionGroupRow,
  patch: { title?: string; icon?: string | null },
): Promise<void> {
  const set: Partial<SiteSectionGroupRow> = { updated_at: nowIso() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.icon !== undefined) set.icon = patch.icon;
  await db.updateTable('site_section_groups').set(set).where('id', '=', group.id).execute();
}

/**
 * Deletes a group; its sections and external links stay, at the top level where the group stood,
 * in their order.
 */
export async function deleteGroup(db: Db, structure: Structure, group: SiteSectionGroupRow): Promise<void> {
  const siblings = topSiblings(structure);
  const members = structure.childrenOf(group.id).map(childKey);
  const ordered = siblings.map((s) => s.key).flatMap((key) => (key === groupKey(group.id) ? members : [key]));
  await db.updateTable('site_sections').set({ group_id: null }).where('group_id', '=', group.id).execute();
  await db.updateTable('site_external_links').set({ group_id: null }).where('group_id', '=', group.id).execute();
  await db.deleteFrom('site_section_groups').where('id', '=', group.id).execute();
  const memberSiblings = members.map((key) => ({ key, position: -1 }));
  await writeOrder(db, [...siblings, ...memberSiblings], ordered);
}

/** Moves a group before/after a top-level section or group, or to the end of the top level. */
export async function moveGroup(
  db: Db,
  structure: Structure,
  group: SiteSectionGroupRow,
  position:
    | {
        before?: { type: 'site-section' | 'site-section-group'; id: string };
        after?: { type: 'site-section' | 'site-section-group'; id: string };
      }
    | undefined,
): Promise<void> {
  const keyOf = (p: { type: string; id: string }) => (p.type === 'site-section' ? sectionKey(p.id) : groupKey(p.id));
  const siblings = topSiblings(structure);
  const wanted: KeyPosition = {
    ...(position?.before ? { before: keyOf(position.before) } : {}),
    ...(position?.after ? { after: keyOf(position.after) } : {}),
  };
  await writeOrder(db, siblings, placeKey(siblings, groupKey(group.id), wanted));
}
