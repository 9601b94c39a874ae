/**
 * Order of the content tree: collections and spaces under the same parent (or at the top of the
 * organization) are siblings with 0-based `position`s. Placing an item renumbers only the siblings
 * whose position changes. Also the collection tree read whole: a subtree, and tree order for lists.
 */

import type { DbOrTrx } from '../core/service.js';
import { badRequest } from '../lib/errors.js';
import { endPosition } from '../lib/order.js';

export type TreeItemType = 'space' | 'collection';
export interface TreeItem {
  type: TreeItemType;
  id: string;
}

/** `{type: space, space: id}` or `{type: collection, collection: id}` */
export type TreePointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };
export interface TreePosition {
  before?: TreePointer;
  after?: TreePointer;
}

const key = (item: TreeItem) => `${item.type}:${item.id}`;
const pointerKey = (p: TreePointer) => (p.type === 'space' ? `space:${p.space}` : `collection:${p.collection}`);

async function siblings(db: DbOrTrx, organizationId: string, parentId: string | null) {
  let spaces = db
    .selectFrom('spaces')
    .select(['id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  let collections = db
    .selectFrom('collections')
    .select(['id', 'position'])
    .where('organization_id', '=', organizationId);
  spaces = parentId ? spaces.where('parent_id', '=', parentId) : spaces.where('parent_id', 'is', null);
  collections = parentId ? collections.where('parent_id', '=', parentId) : collections.where('parent_id', 'is', null);
  const [s, c] = await Promise.all([spaces.execute(), collections.execute()]);
  return [
    ...s.map((r) => ({ type: 'space' as const, id: r.id, position: r.position })),
    ...c.map((r) => ({ type: 'collection' as const, id: r.id, position: r.position })),
  ].sort((a, b) => a.position - b.position || key(a).localeCompare(key(b)));
}

/** The position after the last sibling under `parentId` (where a new space or collection goes). */
export async function positionAtEnd(db: DbOrTrx, organizationId: string, parentId: string | null): Promise<number> {
  return endPosition(await siblings(db, organizationId, parentId));
}

/**
 * Puts `item` (already moved under `parentId`) at `position` among its siblings — before or after
 * the named sibling, or at the end when absent. A pointer that is not a sibling is a 400.
 */
export async function placeItem(
  db: DbOrTrx,
  organizationId: string,
  parentId: string | null,
  item: TreeItem,
  position: TreePosition | undefined,
): Promise<void> {
  const others = (await siblings(db, organizationId, parentId)).filter((s) => key(s) !== key(item));
  const indexOf = (pointer: TreePointer, field: string) => {
    const i = others.findIndex((s) => key(s) === pointerKey(pointer));
    if (i < 0) throw badRequest(`body/position/${field} does not name a sibling in the target parent`);
    return i;
  };
  let index = others.length;
  if (position?.before && position.after) {
    index = indexOf(position.before, 'before');
    if (indexOf(position.after, 'after') !== index - 1) {
      throw badRequest('body/position: before and after are not adjacent siblings');
    }
  } else if (position?.before) {
    index = indexOf(position.before, 'before');
  } else if (position?.after) {
    index = indexOf(position.after, 'after') + 1;
  }
  const ordered = [...others.slice(0, index), { ...item, position: -1 }, ...others.slice(index)];
  for (const [i, s] of ordered.entries()) {
    if (s.position === i) continue;
    const table = s.type === 'space' ? 'spaces' : 'collections';
    await db.updateTable(table).set({ position: i }).where('id', '=', s.id).execute();
  }
}

/** `rootId` and every collection below it, parents first. */
export function subtree(all: Array<{ id: string; parent_id: string | null }>, rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const c of all) if (c.parent_id) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c.id]);
  const out: string[] = [];
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.shift() as string;
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * Collections in tree order: each parent followed by its children, siblings by position. With
 * `nested` false only the top level.
 */
export function treeOrder<T extends { id: string; parent_id: string | null; position: number }>(
  all: T[],
  nested: boolean,
): T[] {
  const byParent = new Map<string | null, T[]>();
  const ids = new Set(all.map((c) => c.id));
  for (const c of all) {
    const parent = c.parent_id && ids.has(c.parent_id) ? c.parent_id : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  for (const list of byParent.values()) list.sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  const out: T[] = [];
  const visit = (parent: string | null) => {
    for (const c of byParent.get(parent) ?? []) {
      out.push(c);
      if (nested) visit(c.id);
    }
  };
  visit(null);
  return out;
}
