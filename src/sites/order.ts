/**
 * Order of siblings on a site: site spaces within their section (or the root), sections within their
 * group, and the top level (sections outside groups and section groups together). Siblings carry
 * 0-based `position`s; moving an item computes the new sequence and rewrites only the positions
 * that change, like the content tree (`content-tree/order.ts`).
 */
import { badRequest } from '../lib/errors.js';

/** A sibling: `kind:id` (e.g. `section:abc`, `group:def`, `site-space:ghi`) and its stored position. */
export interface Sibling {
  key: string;
  position: number;
}

/** `{before?, after?}` naming siblings by key (already translated from the request's pointers). */
export interface KeyPosition {
  before?: string;
  after?: string;
}

/** Siblings sorted by position, ties broken by key so the order is total. */
export function sortSiblings<T extends Sibling>(siblings: T[]): T[] {
  return [...siblings].sort((a, b) => a.position - b.position || a.key.localeCompare(b.key));
}

/**
 * The sequence of keys after placing `item` before/after the named sibling (at the end when
 * `position` is absent or empty). A pointer that is not a sibling, or `before` and `after` that are
 * not adjacent, is a 400 naming the field.
 */
export function placeKey(siblings: Sibling[], item: string, position: KeyPosition | undefined): string[] {
  const others = sortSiblings(siblings)
    .map((s) => s.key)
    .filter((k) => k !== item);
  const indexOf = (key: string, field: 'before' | 'after') => {
    const i = others.indexOf(key);
    if (i < 0) throw badRequest(`body/position/${field} does not name a sibling of the item being moved`);
    return i;
  };
  let index = others.length;
  if (position?.before !== undefined && position.after !== undefined) {
    index = indexOf(position.before, 'before');
    if (indexOf(position.after, 'after') !== index - 1) {
      throw badRequest('body/position: before and after are not adjacent siblings');
    }
  } else if (position?.before !== undefined) {
    index = indexOf(position.before, 'before');
  } else if (position?.after !== undefined) {
    index = indexOf(position.after, 'after') + 1;
  }
  return [...others.slice(0, index), item, ...others.slice(index)];
}

/** Which keys need a new position to follow `ordered` (0-based), given the current positions. */
export function changedPositions(siblings: Sibling[], ordered: string[]): Array<{ key: string; position: number }> {
  const current = new Map(siblings.map((s) => [s.key, s.position]));
  return ordered.flatMap((key, position) => (current.get(key) === position ? [] : [{ key, position }]));
}

/** `kind:id` → `[kind, id]`. */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)];
}
