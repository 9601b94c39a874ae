/**
 * Three-way merge of a change request into the live content, page by page.
 *
 * base = the live revision the change request started from, ours = the live revision now,
 * theirs = the change request's revision. For each page, its own fields (title, slug, body hash, …)
 * and its parent are compared with base on each side:
 * - changed on one side only → that side wins (an insertion, an edit, a move or a deletion);
 * - changed on both sides to the same result → that result;
 * - changed on both sides differently (including edited on one side, deleted on the other) → a
 *   conflict, and nothing is merged.
 * Order among siblings follows the live content, with the pages the change request inserted or moved
 * placed after the sibling that precedes them in the change request. Files and reusable contents
 * merge the same way, by id.
 */
import { type FileEntry, flattenPages, ownFields, type PageNode, type ReusableEntry, type Snapshot } from './store.js';

export interface MergeConflict {
  kind: 'page' | 'file' | 'reusable-content';
  id: string;
  title: string;
}

export type MergeResult =
  | { ok: true; pages: PageNode[]; files: FileEntry[]; reusableContents: ReusableEntry[] }
  | { ok: false; conflicts: MergeConflict[] };

interface PageState {
  own: Omit<PageNode, 'children'>;
  parent: string | null;
  prev: string | null;
}

function pageStates(snapshot: Snapshot): Map<string, PageState> {
  const states = new Map<string, PageState>();
  for (const { page, parent, index } of flattenPages(snapshot.pages)) {
    const list = parent ? parent.children : snapshot.pages;
    states.set(page.id, { own: ownFields(page), parent: parent?.id ?? null, prev: list[index - 1]?.id ?? null });
  }
  return states;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** What counts as a change of a page (its position among siblings does not). */
const content = (state: PageState) => ({ own: state.own, parent: state.parent });

/** Three-way choice of one value; `conflict` when both sides changed it differently. */
function pick<T>(base: T, ours: T, theirs: T): { value: T; fromTheirs: boolean } | 'conflict' {
  if (same(base, theirs)) return { value: ours, fromTheirs: false };
  if (same(base, ours) || same(ours, theirs)) return { value: theirs, fromTheirs: true };
  return 'conflict';
}

function mergeEntries<T extends { id: string }>(
  kind: 'file' | 'reusable-content',
  base: T[],
  ours: T[],
  theirs: T[],
  title: (entry: T) => string,
  conflicts: MergeConflict[],
): T[] {
  const b = new Map(base.map((e) => [e.id, e]));
  const o = new Map(ours.map((e) => [e.id, e]));
  const t = new Map(theirs.map((e) => [e.id, e]));
  const order = [...ours.map((e) => e.id), ...theirs.map((e) => e.id).filter((id) => !o.has(id))];
  const out: T[] = [];
  for (const id of order) {
    const choice = pick(b.get(id), o.get(id), t.get(id));
    const entry = o.get(id) ?? t.get(id) ?? b.get(id);
    if (choice === 'conflict') conflicts.push({ kind, id, title: entry ? title(entry) : id });
    else if (choice.value) out.push(choice.value);
  }
  return out;
}

export function threeWayMerge(base: Snapshot, ours: Snapshot, theirs: Snapshot): MergeResult {
  if (ours.id === base.id) {
    return { ok: true, pages: theirs.pages, files: theirs.files, reusableContents: theirs.reusableContents };
  }
  const b = pageStates(base);
  const o = pageStates(ours);
  const t = pageStates(theirs);
  const conflicts: MergeConflict[] = [];
  const result = new Map<string, { own: PageState['own']; parent: string | null; placeFromTheirs: boolean }>();

  for (const id of new Set([...o.keys(), ...t.keys(), ...b.keys()])) {
    const [bs, os, ts] = [b.get(id), o.get(id), t.get(id)];
    const titleOf = () => (ts ?? os ?? bs)?.own.title ?? id;
    // Deleted on one side and changed on the other (or inserted on both): a conflict.
    const exists = pick(bs !== undefined, os !== undefined, ts !== undefined);
    if (exists === 'conflict') {
      conflicts.push({ kind: 'page', id, title: titleOf() });
      continue;
    }
    if (!os || !ts) {
      if (!exists.value) {
        // Deleted on one side: a conflict when the other side changed the page meanwhile.
        const kept = os ?? ts;
        if (bs && kept && !same(content(bs), content(kept))) conflicts.push({ kind: 'page', id, title: titleOf() });
        continue;
      }
      // Present on one side only (inserted there): take it as it is.
      const only = (os ?? ts) as PageState;
      result.set(id, { own: only.own, parent: only.parent, placeFromTheirs: !os });
      continue;
    }
    const own = pick(bs?.own, os.own, ts.own);
    const parent = pick(bs?.parent, os.parent, ts.parent);
    if (own === 'conflict' || parent === 'conflict') {
      conflicts.push({ kind: 'page', id, title: titleOf() });
      continue;
    }
    const movedByTheirs = parent.fromTheirs || (!same(bs?.prev, ts.prev) && same(bs?.prev, os.prev));
    result.set(id, { own: own.value ?? os.own, parent: parent.value ?? null, placeFromTheirs: movedByTheirs });
  }
  for (const [id, entry] of result) {
    if (entry.parent !== null && !result.has(entry.parent)) {
      conflicts.push({ kind: 'page', id, title: entry.own.title });
    }
  }

  const files = mergeEntries('file', base.files, ours.files, theirs.files, (f) => f.name, conflicts);
  const reusableContents = mergeEntries(
    'reusable-content',
    base.reusableContents,
    ours.reusableContents,
    theirs.reusableContents,
    (r) => r.title,
    conflicts,
  );
  if (conflicts.length > 0) return { ok: false, conflicts };

  // Children lists: the live order, then what the change request placed, after its predecessor there.
  const lists = new Map<string | null, string[]>();
  const listOf = (parent: string | null) => {
    const list = lists.get(parent) ?? [];
    lists.set(parent, list);
    return list;
  };
  for (const { page } of flattenPages(ours.pages)) {
    const entry = result.get(page.id);
    if (entry && !entry.placeFromTheirs) listOf(entry.parent).push(page.id);
  }
  for (const { page } of flattenPages(theirs.pages)) {
    const entry = result.get(page.id);
    if (!entry?.placeFromTheirs) continue;
    const list = listOf(entry.parent);
    const prev = t.get(page.id)?.prev ?? null;
    const at = prev ? list.indexOf(prev) + 1 : 0;
    list.splice(at, 0, page.id);
  }
  const build = (parent: string | null): PageNode[] =>
    (lists.get(parent) ?? []).map((id) => ({
      ...(result.get(id) as { own: PageState['own'] }).own,
      children: build(id),
    }));
  return { ok: true, pages: build(null), files, reusableContents };
}
