/**
 * The page tree of a revision in the database: page versions content-addressed
 * (`page_versions.hash` = SHA-256 of the page's own fields and its list of children's hashes), each
 * list of pages stored through ./chunked-list.ts. Editing one page writes its new version, those of
 * its ancestors, and the chunks of the lists holding them: nothing else.
 *
 * Pages read from the database are kept per process by hash, whole subtrees (they never change), and
 * shared by every snapshot holding them: loading a revision written by an autosave reads only the
 * new versions and chunks. Writing knows the versions it need not hash again: a page read from the
 * database, or a copy of one (tree.ts `cloneTree`) whose own fields and children are unchanged.
 */
import type { DbOrTrx } from '../core/service.js';
import { prepare } from '../db/prepared.js';
import { RecencyMap } from '../lib/recency-map.js';
import { nowIso } from '../lib/time.js';
import {
  encodeList,
  type FreshNodes,
  insertListNodes,
  type ListNode,
  type ListRef,
  listHashes,
  listItems,
  readListNodes,
  sha256,
} from './chunked-list.js';
import { ownFields, type PageNode } from './page-types.js';

/** What a `page_versions.data` holds: the page's own fields and its children's hashes. */
type StoredPage = Omit<PageNode, 'children'> & { children: ListRef<string> };

/** A page read from the database: its version hash and its children's. */
interface Stored {
  hash: string;
  children: string[];
}

const CACHED_PAGES = 50_000;
const QUERY_CHUNK = 500;

const pages = new RecencyMap<string, PageNode>();
const stored = new WeakMap<PageNode, Stored>();
/**
 * Of each copied tree (by its top-level list): the page each of its copies was made from. One Map
 * per tree, not a WeakMap entry per copy: a batch copies every page of the space, and an entry per
 * copy in a process-long WeakMap cost an autosave more than the rest of its copying and hashing
 * (CPU profile, issue #35).
 */
const copiedTrees = new WeakMap<PageNode[], ReadonlyMap<PageNode, PageNode>>();

/** The page each copy in `tree` was made from, when `tree` is a copy ({@link markCopies}). */
export function originalsOf(tree: PageNode[]): ReadonlyMap<PageNode, PageNode> | undefined {
  return copiedTrees.get(tree);
}

/**
 * Records that the pages of `tree` are copies (which may then differ from what they were copied
 * from): `originals` maps each to a page read from the database, or to the page it copied when
 * that one was not.
 */
export function markCopies(tree: PageNode[], originals: ReadonlyMap<PageNode, PageNode>): void {
  copiedTrees.set(tree, originals);
}

/**
 * The tree under `root` (a revision's `pages`), reading what is not kept in memory; `written`: the
 * `data` of versions just written (by hash), taken as read from the database.
 */
export async function readPageTree(
  db: DbOrTrx,
  root: ListRef<string>,
  written?: ReadonlyMap<string, string>,
): Promise<PageNode[]> {
  const lists = new Map<string, ListNode>();
  const read = new Map<string, StoredPage>();
  const found = new Map<string, PageNode>();
  let refs: ListRef<string>[] = [root];
  // One level of the tree at a time: its lists' chunks, then the page versions not in memory.
  while (refs.length > 0) {
    await readListNodes(db, listHashes(refs), lists);
    const missing: string[] = [];
    const level: string[] = [];
    for (const hash of new Set(refs.flatMap((ref) => listItems(ref, lists)))) {
      if (read.has(hash) || found.has(hash)) continue;
      const cached = pages.get(hash);
      const data = cached ? undefined : written?.get(hash);
      if (cached) found.set(hash, cached);
      else if (data !== undefined) {
        read.set(hash, JSON.parse(data) as StoredPage);
        level.push(hash);
      } else missing.push(hash);
    }
    for (let i = 0; i < missing.length; i += QUERY_CHUNK) {
      const part = missing.slice(i, i + QUERY_CHUNK);
      const rows = await db.selectFrom('page_versions').select(['hash', 'data']).where('hash', 'in', part).execute();
      for (const row of rows) read.set(row.hash, JSON.parse(row.data) as StoredPage);
    }
    level.push(...missing);
    refs = level.flatMap((hash) => {
      const page = read.get(hash);
      return page ? [page.children] : [];
    });
  }
  const build = (hash: string): PageNode => {
    const known = found.get(hash);
    if (known) return known;
    const page = read.get(hash);
    if (!page) throw new Error(`missing page version ${hash}`);
    const children = listItems(page.children, lists);
    const node: PageNode = { ...page, children: children.map(build) };
    stored.set(node, { hash, children });
    found.set(hash, node);
    pages.set(hash, node);
    if (pages.size > CACHED_PAGES) pages.evict();
    return node;
  };
  return listItems(root, lists).map(build);
}

/** What writing a tree must insert. */
export interface FreshRows {
  pages: Map<string, { page_id: string; data: string }>;
  lists: FreshNodes;
}

function sameOwnFields(a: PageNode, b: PageNode): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key === 'children' || a[key as keyof PageNode] === b[key as keyof PageNode]);
}

function sameHashes(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((hash, i) => hash === b[i]);
}

/** The stored form of a list of pages: their version hashes, keyed by page id. */
function encodePages(list: PageNode[], hashes: string[], fresh: FreshRows): ListRef<string> {
  return encodeList(hashes, (_hash, i) => (list[i] as PageNode).id, fresh.lists);
}

/** Hashes `tree` into the stored form of its top-level list; the rows it lacks go to `fresh`. */
export function encodePageTree(tree: PageNode[], fresh: FreshRows): ListRef<string> {
  const originals = copiedTrees.get(tree);
  const hashOf = (page: PageNode): string => {
    const known = stored.get(page);
    if (known) return known.hash;
    const children = page.children.map(hashOf);
    const original = originals?.get(page);
    const was = original && stored.get(original);
    if (original && was && sameOwnFields(page, original) && sameHashes(children, was.children)) return was.hash;
    const data = JSON.stringify({ ...ownFields(page), children: encodePages(page.children, children, fresh) });
    const hash = sha256(data);
    fresh.pages.set(hash, { page_id: page.id, data });
    return hash;
  };
  return encodePages(tree, tree.map(hashOf), fresh);
}

/**
 * One version's insert, compiled once (db/prepared.ts): editing a top-level page, as an autosave
 * mostly does, writes that one version.
 */
const insertVersion = prepare((db, p: { hash: string; page_id: string; data: string; created_at: string }) =>
  db
    .insertInto('page_versions')
    .values({ hash: p.hash, page_id: p.page_id, data: p.data, created_at: p.created_at })
    .onConflict((oc) => oc.column('hash').doNothing()),
);

/** Writes the rows `fresh` lists (those already there are left as they are). */
export async function insertFreshRows(db: DbOrTrx, fresh: FreshRows): Promise<void> {
  const now = nowIso();
  const rows = [...fresh.pages].map(([hash, row]) => ({ hash, page_id: row.page_id, data: row.data, created_at: now }));
  const [only] = rows;
  if (rows.length === 1 && only) {
    await insertVersion.all(db, only);
  } else {
    for (let i = 0; i < rows.length; i += QUERY_CHUNK) {
      await db
        .insertInto('page_versions')
        .values(rows.slice(i, i + QUERY_CHUNK))
        .onConflict((oc) => oc.column('hash').doNothing())
        .execute();
    }
  }
  await insertListNodes(db, fresh.lists);
}
