/**
 * External links of a site's navigation: adding, changing and removing them while keeping the
 * structure's rules (see `structure.ts`). A link needs a site with sections (the official document:
 * "External links require a section-based site structure"), stands at the top level or in a
 * section group, and leads to an absolute http(s) URL that the safe-URL check lets into an `href`.
 * Functions take the {@link Structure} loaded on the caller's transaction before the change.
 */
import type { Db } from '../db/database.js';
import type { SiteExternalLinkRow } from '../db/schema.js';
import { badRequest, notFound } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { endPosition } from '../lib/order.js';
import { safeUrl, urlScheme } from '../lib/safe-url.js';
import { nowIso } from '../lib/time.js';
import { assertExpression } from './condition.js';
import { groupSiblings, topSiblings } from './sections.js';
import type { Structure } from './structure.js';

export interface ExternalLinkFields {
  title?: string;
  localizedTitle?: Record<string, string> | null;
  description?: string | null;
  localizedDescription?: Record<string, string> | null;
  icon?: string | null;
  url?: string;
  parent?: string | null;
  draft?: boolean;
  condition?: string | null;
}

export function linkIn(structure: Structure, id: string): SiteExternalLinkRow {
  const row = structure.linkById.get(id);
  if (!row) throw notFound(`site external link ${id} not found`);
  return row;
}

/** 400 unless `url` is an absolute http(s) URL a rendered `href` may hold as it is. */
function checkUrl(url: string): string {
  const scheme = urlScheme(url);
  if ((scheme !== 'http' && scheme !== 'https') || safeUrl(url) !== url) {
    throw badRequest('body/url must be an absolute http or https URL');
  }
  return url;
}

/** 400 unless `parent` is a section group of the site. */
function checkParent(structure: Structure, parent: string): string {
  if (!structure.groupById.has(parent)) throw badRequest(`body/parent: ${parent} is not a section group of this site`);
  return parent;
}

const json = (value: Record<string, string> | null | undefined) =>
  value === null || value === undefined || Object.keys(value).length === 0 ? null : JSON.stringify(value);

/** Adds a link at the end of the top level, or of the group `parent`. */
export async function addExternalLink(
  db: Db,
  structure: Structure,
  siteId: string,
  fields: ExternalLinkFields & { title: string; url: string },
): Promise<SiteExternalLinkRow> {
  if (!structure.hasSections) {
    throw badRequest('external links need a site structured in sections; this site has a simple structure');
  }
  const groupId = fields.parent ? checkParent(structure, fields.parent) : null;
  if (typeof fields.condition === 'string') assertExpression(fields.condition, 'body/condition');
  const siblings = groupId ? groupSiblings(structure, groupId) : topSiblings(structure);
  const now = nowIso();
  const row: SiteExternalLinkRow = {
    id: newId(),
    site_id: siteId,
    group_id: groupId,
    title: fields.title,
    localized_title: json(fields.localizedTitle),
    description: fields.description ?? null,
    localized_description: json(fields.localizedDescription),
    icon: fields.icon ?? null,
    url: checkUrl(fields.url),
    draft: fields.draft ? 1 : 0,
    condition: fields.condition || null,
    position: endPosition(siblings),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('site_external_links').values(row).execute();
  return row;
}

/** Changes a link; a new parent (a group, or null: the top level) puts it at the end there. */
export async function updateExternalLink(
  db: Db,
  structure: Structure,
  link: SiteExternalLinkRow,
  patch: ExternalLinkFields,
): Promise<void> {
  const set: Partial<SiteExternalLinkRow> = { updated_at: nowIso() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.localizedTitle !== undefined) set.localized_title = json(patch.localizedTitle);
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.localizedDescription !== undefined) set.localized_description = json(patch.localizedDescription);
  if (patch.icon !== undefined) set.icon = patch.icon;
  if (patch.url !== undefined) set.url = checkUrl(patch.url);
  if (patch.draft !== undefined) set.draft = patch.draft ? 1 : 0;
  if (patch.condition !== undefined) {
    if (typeof patch.condition === 'string' && patch.condition !== '') {
      assertExpression(patch.condition, 'body/condition');
    }
    set.condition = patch.condition || null;
  }
  if (patch.parent !== undefined && patch.parent !== link.group_id) {
    const groupId = patch.parent === null ? null : checkParent(structure, patch.parent);
    const siblings = groupId ? groupSiblings(structure, groupId) : topSiblings(structure);
    set.group_id = groupId;
    set.position = endPosition(siblings.filter((s) => s.key !== `link:${link.id}`));
  }
  await db.updateTable('site_external_links').set(set).where('id', '=', link.id).execute();
}

export async function deleteExternalLink(db: Db, link: SiteExternalLinkRow): Promise<void> {
  await db.deleteFrom('site_external_links').where('id', '=', link.id).execute();
}
