/**
 * The revision store. A revision is an immutable snapshot of a space's content: the page tree,
 * the files and the reusable contents, with its parent revisions.
 *
 * Sharing: page versions are content-addressed (`page_versions.hash` = SHA-256 of the page's own
 * fields plus the hashes of its children), and documents too (`content_documents.hash`). A
 * revision row lists only its top-level page hashes, so writing a revision after editing one page
 * inserts rows for that page and its ancestors only; every unchanged subtree and every unchanged
 * body is the row the previous revision already points to.
 *
 * Snapshots are cached per process (they never change once written); callers must not mutate them.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { SpaceRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import type { ContentRef, JsonDocument } from './document.js';
import { type DocumentLink, extractLinks } from './links.js';

export type PageType = 'document' | 'group' | 'link';

export interface PageNode {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  /** Adaptive content: shown on a published site only to visitors for whom this expression holds. */
  condition?: string;
  /** Hash of the body (document pages); absent for an empty page. */
  document?: string;
  /** Link pages: where they point. */
  target?: ContentRef;
  children: PageNode[];
}

export interface FileEntry {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** Hash of the bytes in the file storage. */
  blob: string;
  /** Git blob id of the bytes. */
  oid: string;
  dimensions?: { width: number; height: number };
}

export interface ReusableEntry {
  id: string;
  title: string;
  document?: string;
}

/** `update`: a change request brought up to date with the live content (parents: its revision, the live one). */
export type RevisionType = 'edits' | 'merge' | 'update';

export interface Snapshot {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  createdAt: string;
  mergedFrom: string | null;
  pages: PageNode[];
  files: FileEntry[];
  reusableContents: ReusableEntry[];
}

/** What a `page_versions.data` holds: the page's own fields and its children's hashes. */
type StoredPage = Omit<PageNode, 'children'> & { children: string[] };

const CHUNK = 500;
const CACHE_SIZE = 64;
const snapshots = new Map<string, Snapshot>();
const documents = new Map<string, JsonDocument>();

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > CACHE_SIZE * 4) cache.delete(cache.keys().next().value as string);
  return value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The page's own fields, without children: what a merge compares. */
export function ownFields(page: PageNode): Omit<PageNode, 'children'> {
  const { children: _children, ...own } = page;
  return own;
}

/** Stores a document body (once per content) and returns its hash. */
export async function putDocument(db: Db, document: JsonDocument): Promise<string> {
  const body = JSON.stringify(document);
  const hash = sha256(body);
  await db
    .insertInto('content_documents')
    .values({ hash, body, links: JSON.stringify(extractLinks(document)), created_at: nowIso() })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  remember(documents, hash, document);
  return hash;
}

export async function getDocuments(db: Db, hashes: string[]): Promise<Map<string, JsonDocument>> {
  const found = new Map<string, JsonDocument>();
  const missing = [...new Set(hashes)].filter((h) => {
    const cached = documents.get(h);
    if (cached) found.set(h, cached);
    return !cached;
  });
  for (const part of chunks(missing)) {
    const rows = await db.selectFrom('content_documents').select(['hash', 'body']).where('hash', 'in', part).execute();
    for (const row of rows) found.set(row.hash, remember(documents, row.hash, JSON.parse(row.body) as JsonDocument));
  }
  return found;
}

export async function getDocumentLinks(db: Db, hashes: string[]): Promise<Map<string, DocumentLink[]>> {
  const found = new Map<string, DocumentLink[]>();
  for (const part of chunks([...new Set(hashes)])) {
    const rows = await db.selectFrom('content_documents').select(['hash', 'links']).where('hash', 'in', part).execute();
    for (const row of rows) found.set(row.hash, JSON.parse(row.links) as DocumentLink[]);
  }
  return found;
}

/**
 * Stores the first revision of a new space: empty. Called in the transaction that creates the space,
 * so every space's live revision has its row from the start and reading content never writes.
 */
export async function storeFirstRevision(db: Db, space: SpaceRow): Promise<void> {
  await db
    .insertInto('revisions')
    .values({
      id: space.revision_id,
      space_id: space.id,
      parents: '[]',
      type: 'edits',
      pages: '[]',
      files: '[]',
      reusable_contents: '[]',
      merged_from: null,
      created_by: null,
      created_at: space.created_at,
    })
    .execute();
}

/** Loads a revision of `space` (undefined when it is not one of the space's revisions). */
export async function loadRevision(db: Db, space: SpaceRow, revisionId: string): Promise<Snapshot | undefined> {
  const cached = snapshots.get(revisionId);
  if (cached) return cached.spaceId === space.id ? cached : undefined;
  const row = await db
    .selectFrom('revisions')
    .selectAll()
    .where('id', '=', revisionId)
    .where('space_id', '=', space.id)
    .executeTakeFirst();
  if (!row) return undefined;

  // Load the tree level by level: one query per depth (per chunk of hashes).
  const stored = new Map<string, StoredPage>();
  let level: string[] = JSON.parse(row.pages) as string[];
  while (level.length > 0) {
    const wanted = [...new Set(level)].filter((h) => !stored.has(h));
    for (const part of chunks(wanted)) {
      const rows = await db.selectFrom('page_versions').select(['hash', 'data']).where('hash', 'in', part).execute();
      for (const r of rows) stored.set(r.hash, JSON.parse(r.data) as StoredPage);
    }
    level = wanted.flatMap((h) => stored.get(h)?.children ?? []);
  }
  const build = (hash: string): PageNode => {
    const page = stored.get(hash);
    if (!page) throw new Error(`revision ${revisionId} refers to a missing page version ${hash}`);
    return { ...page, children: page.children.map(build) };
  };
  const snapshot: Snapshot = {
    id: row.id,
    spaceId: row.space_id,
    parents: JSON.parse(row.parents) as string[],
    type: row.type === 'merge' || row.type === 'update' ? row.type : 'edits',
    createdAt: row.created_at,
    mergedFrom: row.merged_from,
    pages: (JSON.parse(row.pages) as string[]).map(build),
    files: JSON.parse(row.files) as FileEntry[],
    reusableContents: JSON.parse(row.reusable_contents) as ReusableEntry[],
  };
  return remember(snapshots, snapshot.id, snapshot);
}

export interface NewRevision {
  spaceId: string;
  parents: string[];
  type: RevisionType;
  pages: PageNode[];
  files: FileEntry[];
  reusableContents: ReusableEntry[];
  mergedFrom?: string | null;
  createdBy: string | null;
}

/** Writes a revision: new page versions only (existing hashes are skipped), then the revision row. */
export async function writeRevision(db: Db, input: NewRevision): Promise<Snapshot> {
  const rows = new Map<string, { page_id: string; data: string }>();
  const hashOf = (page: PageNode): string => {
    const data: StoredPage = { ...ownFields(page), children: page.children.map(hashOf) };
    const text = JSON.stringify(data);
    const hash = sha256(text);
    rows.set(hash, { page_id: page.id, data: text });
    return hash;
  };
  const roots = input.pages.map(hashOf);
  const now = nowIso();
  const entries = [...rows.entries()];
  for (const part of chunks(entries)) {
    const existing = new Set(
      (
        await db
          .selectFrom('page_versions')
          .select('hash')
          .where(
            'hash',
            'in',
            part.map(([hash]) => hash),
          )
          .execute()
      ).map((r) => r.hash),
    );
    const fresh = part.filter(([hash]) => !existing.has(hash));
    if (fresh.length === 0) continue;
    await db
      .insertInto('page_versions')
      .values(fresh.map(([hash, row]) => ({ hash, page_id: row.page_id, data: row.data, created_at: now })))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
  const snapshot: Snapshot = {
    id: newId(),
    spaceId: input.spaceId,
    parents: input.parents,
    type: input.type,
    createdAt: now,
    mergedFrom: input.mergedFrom ?? null,
    pages: input.pages,
    files: input.files,
    reusableContents: input.reusableContents,
  };
  await db
    .insertInto('revisions')
    .values({
      id: snapshot.id,
      space_id: snapshot.spaceId,
      parents: JSON.stringify(snapshot.parents),
      type: snapshot.type,
      pages: JSON.stringify(roots),
      files: JSON.stringify(snapshot.files),
      reusable_contents: JSON.stringify(snapshot.reusableContents),
      merged_from: snapshot.mergedFrom,
      created_by: input.createdBy,
      created_at: now,
    })
    .execute();
  return snapshot;
}

/** Every page of a tree, depth first, with its parent and path. */
export interface FlatPage {
  page: PageNode;
  parent: PageNode | null;
  path: string;
  index: number;
}

export function flattenPages(pages: PageNode[]): FlatPage[] {
  const out: FlatPage[] = [];
  const visit = (list: PageNode[], parent: PageNode | null, prefix: string) => {
    list.forEach((page, index) => {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      out.push({ page, parent, path, index });
      // A group only gathers pages in the table of contents: its slug is not part of their paths.
      visit(page.children, page, page.type === 'group' ? prefix : path);
    });
  };
  visit(pages, null, '');
  return out;
}

export function findPage(pages: PageNode[], pageId: string): FlatPage | undefined {
  return flattenPages(pages).find((entry) => entry.page.id === pageId);
}
