/**
 * Long lists of a revision — the top-level pages, a page's children, the files, the reusable
 * contents — stored as a tree of content-addressed chunks (`content_lists` rows), so that a
 * revision changing one item writes the chunk holding it and the chunks above it, never the whole
 * list: an autosave in a space of 2,000 pages writes about as much as in one of 200.
 *
 * A list of at most {@link INLINE_MAX} items is stored inline (a JSON array, as before chunks
 * existed, so those page versions keep their hashes). A longer one is `{ "list": <hash> }`, the
 * hash of a node `{ "items": [...] }` or `{ "lists": [<hash>, ...] }`. Chunk boundaries are chosen
 * by the items' keys (their ids), not by position: an item ends a chunk when a hash of its key
 * hits 1 in {@link BOUNDARY}, so editing, inserting or removing an item moves no other boundary
 * (upper levels likewise, by the key of each chunk's last item).
 *
 * Nodes read from the database are kept per process (immutable, by hash): a node found there is
 * known to be stored, so writing a list again sends only the chunks that changed.
 */
import { hash } from 'node:crypto';
import type { DbOrTrx } from '../core/service.js';
import { RecencyMap } from '../lib/recency-map.js';
import { nowIso } from '../lib/time.js';

export type ListRef<T> = T[] | { list: string };
export type ListNode = { items: unknown[] } | { lists: string[] };

export const INLINE_MAX = 32;
const BOUNDARY = 8;
/** A chunk ends after this many items whatever the keys say (bounds the worst case). */
const MAX_CHUNK = 32;
const CACHED_NODES = 50_000;
const QUERY_CHUNK = 500;

const known = new RecencyMap<string, ListNode>();

function remember(hash: string, node: ListNode): void {
  known.set(hash, node);
  if (known.size > CACHED_NODES) known.evict();
}

/**
 * Hex SHA-256 of `text`. `hash` (Node 20.12+) is the one-shot form of createHash…digest, without a
 * Hash object: every page body, page version and list chunk an edit writes is hashed here.
 */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/** FNV-1a of `text`: cheap and stable, enough to scatter chunk boundaries. */
function scatter(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Rows a write must insert: `content_lists` nodes by hash (the JSON text). */
export type FreshNodes = Map<string, string>;

/** Splits `entries` after each entry whose key (at this level) ends a chunk. */
function chunk<T extends { key: string }>(entries: T[], level: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const entry of entries) {
    current.push(entry);
    if (current.length >= MAX_CHUNK || scatter(`${level}:${entry.key}`) % BOUNDARY === 0) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

function bySize<T>(entries: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < entries.length; i += MAX_CHUNK) out.push(entries.slice(i, i + MAX_CHUNK));
  return out;
}

function store(node: ListNode, fresh: FreshNodes): string {
  const text = JSON.stringify(node);
  const hash = sha256(text);
  if (!known.get(hash)) fresh.set(hash, text);
  return hash;
}

/**
 * The stored form of `items`, keyed by `keyOf` (an id that stays with the item when it changes);
 * the chunks not known to be stored go to `fresh`.
 */
export function encodeList<T>(items: T[], keyOf: (item: T, index: number) => string, fresh: FreshNodes): ListRef<T> {
  if (items.length <= INLINE_MAX) return items;
  let level = 0;
  const entries = items.map((item, index) => ({ item, key: keyOf(item, index) }));
  let nodes = chunk(entries, level).map((part) => ({
    hash: store({ items: part.map((e) => e.item) }, fresh),
    key: (part[part.length - 1] as { key: string }).key,
  }));
  while (nodes.length > 1) {
    level++;
    let parts = chunk(nodes, level);
    // Every key ended a chunk (rare): group by size, so that each level has fewer nodes.
    if (parts.length === nodes.length) parts = bySize(nodes);
    nodes = parts.map((part) => ({
      hash: store({ lists: part.map((n) => n.hash) }, fresh),
      key: (part[part.length - 1] as { key: string }).key,
    }));
  }
  return { list: (nodes[0] as { hash: string }).hash };
}

/** Writes the fresh nodes (a node already there is left as it is). */
export async function insertListNodes(db: DbOrTrx, fresh: FreshNodes): Promise<void> {
  const rows = [...fresh].map(([hash, data]) => ({ hash, data, created_at: nowIso() }));
  for (let i = 0; i < rows.length; i += QUERY_CHUNK) {
    await db
      .insertInto('content_lists')
      .values(rows.slice(i, i + QUERY_CHUNK))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
}

/** Keeps nodes just written in memory, as {@link readListNodes} would read them (once they are committed). */
export function rememberListNodes(nodes: FreshNodes): void {
  for (const [hash, text] of nodes) remember(hash, JSON.parse(text) as ListNode);
}

/** The list hashes `refs` name (to read before {@link listItems}). */
export function listHashes(refs: ListRef<unknown>[]): string[] {
  return refs.flatMap((ref) => (Array.isArray(ref) ? [] : [ref.list]));
}

/**
 * Reads the nodes under `hashes` (level by level, one query per level for those not kept in
 * memory) into `into`, for {@link listItems}.
 */
export async function readListNodes(db: DbOrTrx, hashes: string[], into: Map<string, ListNode>): Promise<void> {
  let level = hashes;
  while (level.length > 0) {
    const missing: string[] = [];
    for (const hash of new Set(level)) {
      if (into.has(hash)) continue;
      const cached = known.get(hash);
      if (cached) into.set(hash, cached);
      else missing.push(hash);
    }
    for (let i = 0; i < missing.length; i += QUERY_CHUNK) {
      const part = missing.slice(i, i + QUERY_CHUNK);
      const rows = await db.selectFrom('content_lists').select(['hash', 'data']).where('hash', 'in', part).execute();
      for (const row of rows) {
        const node = JSON.parse(row.data) as ListNode;
        remember(row.hash, node);
        into.set(row.hash, node);
      }
    }
    level = [...new Set(level)].flatMap((hash) => {
      const node = into.get(hash);
      return node && 'lists' in node ? node.lists : [];
    });
  }
}

/** The items of a stored list, its nodes read by {@link readListNodes}. */
export function listItems<T>(ref: ListRef<T>, nodes: Map<string, ListNode>): T[] {
  if (Array.isArray(ref)) return ref;
  const out: T[] = [];
  const visit = (hash: string) => {
    const node = nodes.get(hash);
    if (!node) throw new Error(`content list ${hash} is missing`);
    if ('items' in node) out.push(...(node.items as T[]));
    else for (const child of node.lists) visit(child);
  };
  visit(ref.list);
  return out;
}

/** Reads and returns the items of stored lists (files, reusable contents). */
export async function readLists<T>(db: DbOrTrx, refs: ListRef<T>[]): Promise<T[][]> {
  const nodes = new Map<string, ListNode>();
  await readListNodes(db, listHashes(refs), nodes);
  return refs.map((ref) => listItems(ref, nodes));
}
