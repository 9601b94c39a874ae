/**
 * Site spaces: adding, changing, moving and removing them while keeping the structure's rules —
 * unique paths per container, one default per container, order by position. Functions take the
 * loaded {@link Structure} (read before the change) and run on the caller's transaction.
 */

import type { Db } from '../db/database.js';
import type { SiteSpaceRow, SpaceRow } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { endPosition } from '../lib/order.js';
import { SITE_SLUG_LENGTH, slugify, uniqueSlug } from '../lib/slug.js';
import { nowIso } from '../lib/time.js';
import { changedPositions, type KeyPosition, placeKey, splitKey } from './order.js';
import type { Structure } from './structure.js';

const key = (id: string) => `site-space:${id}`;

/** The site space `id` of the loaded structure, or 404. */
export function siteSpaceIn(structure: Structure, id: string) {
  const row = structure.siteSpaceById.get(id);
  if (!row) throw notFound(`site space ${id} not found`);
  return row;
}

/**
 * The container a new site space joins: the named section (which must be one of the site's), else
 * the default section when the site has sections, else the root.
 */
export function targetSection(structure: Structure, sectionId: string | undefined): string | null {
  if (sectionId !== undefined) {
    if (!structure.sectionById.has(sectionId))
      throw badRequest(`body/sectionId: section ${sectionId} is not a section of this site`);
    return sectionId;
  }
  if (!structure.hasSections) return null;
  return structure.sections.find((s) => s.is_default === 1)?.id ?? structure.sections[0]?.id ?? null;
}

function siblingsOf(structure: Structure, sectionId: string | null) {
  return structure.siteSpacesIn(sectionId).map((s) => ({ key: key(s.id), position: s.position, id: s.id }));
}

/**
 * Adds `space` at the end of `sectionId` (null: the root), with a path made from its title that is
 * free in that container; the first site space of a container becomes its default. Reads the
 * container from the database, so several can be added in a row on one transaction.
 */
export async function insertSiteSpace(
  db: Db,
  siteId: string,
  space: Pick<SpaceRow, 'id' | 'title'>,
  sectionId: string | null,
): Promise<SiteSpaceRow> {
  let query = db.selectFrom('site_spaces').select(['path', 'position']).where('site_id', '=', siteId);
  query = sectionId ? query.where('section_id', '=', sectionId) : query.where('section_id', 'is', null);
  const siblings = await query.execute();
  const now = nowIso();
  const row: SiteSpaceRow = {
    id: newId(),
    site_id: siteId,
    section_id: sectionId,
    space_id: space.id,
    path: uniqueSlug(
      slugify(space.title, { fallback: 'space', maxLength: SITE_SLUG_LENGTH }),
      siblings.map((s) => s.path),
    ),
    condition: null,
    is_default: siblings.length === 0 ? 1 : 0,
    position: endPosition(siblings),
    customization: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('site_spaces').values(row).execute();
  return row;
}

/** Changes path and/or condition; a path already used in the same container is a 409. */
export async function updateSiteSpace(
  db: Db,
  structure: Structure,
  row: SiteSpaceRow,
  patch: { path?: string; condition?: string | null },
): Promise<void> {
  if (patch.path !== undefined && patch.path !== row.path) {
    const taken = structure.siteSpacesIn(row.section_id).some((s) => s.id !== row.id && s.path === patch.path);
    if (taken) {
      throw conflict(
        `body/path "${patch.path}" is already used by another site space ${row.section_id ? 'of this section' : 'at the root of this site'}`,
      );
    }
  }
  const set: Partial<SiteSpaceRow> = { updated_at: nowIso() };
  if (patch.path !== undefined) set.path = patch.path;
  if (patch.condition !== undefined) set.condition = patch.condition;
  await db.updateTable('site_spaces').set(set).where('id', '=', row.id).execute();
}

/** Makes `row` the default of its container (and no other). */
export async function makeDefaultSiteSpace(db: Db, row: Pick<SiteSpaceRow, 'id' | 'site_id' | 'section_id'>) {
  let others = db.updateTable('site_spaces').set({ is_default: 0 }).where('site_id', '=', row.site_id);
  others = row.section_id ? others.where('section_id', '=', row.section_id) : others.where('section_id', 'is', null);
  await others.where('id', '!=', row.id).where('is_default', '=', 1).execute();
  await db.updateTable('site_spaces').set({ is_default: 1 }).where('id', '=', row.id).execute();
}

/**
 * Removes site spaces, with the redirects that lead to them, and gives every container that lost its
 * default a new one: the first remaining site space in order.
 */
export async function deleteSiteSpaces(db: Db, structure: Structure, rows: SiteSpaceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  await db
    .deleteFrom('site_redirects')
    .where('destination_kind', '=', 'site-space')
    .where('destination_id', 'in', ids)
    .execute();
  await db.deleteFrom('site_spaces').where('id', 'in', ids).execute();
  const gone = new Set(ids);
  const containers = new Set(rows.filter((r) => r.is_default === 1).map((r) => r.section_id));
  for (const sectionId of containers) {
    const next = structure.siteSpacesIn(sectionId).find((s) => !gone.has(s.id));
    if (next) await makeDefaultSiteSpace(db, next);
  }
}

/** Moves `row` before/after a sibling in its container, or to its end. */
export async function moveSiteSpace(
  db: Db,
  structure: Structure,
  row: SiteSpaceRow,
  position: { before?: { siteSpace: string }; after?: { siteSpace: string } } | undefined,
): Promise<void> {
  const siblings = siblingsOf(structure, row.section_id);
  const wanted: KeyPosition = {
    ...(position?.before ? { before: key(position.before.siteSpace) } : {}),
    ...(position?.after ? { after: key(position.after.siteSpace) } : {}),
  };
  const ordered = placeKey(siblings, key(row.id), wanted);
  for (const change of changedPositions(siblings, ordered)) {
    await db
      .updateTable('site_spaces')
      .set({ position: change.position })
      .where('id', '=', splitKey(change.key)[1])
      .execute();
  }
}
