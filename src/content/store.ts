/**
 * The revision store. A revision is an immutable snapshot of a space's content: the page tree,
 * the files and the reusable contents, with its parent revisions.
 *
 * Sharing: page versions are content-addressed (./page-tree-store.ts), documents too
 * (`content_documents.hash`), and every list longer than a few dozen items (top-level pages, a
 * page's children, files, reusable contents) is stored as content-addressed chunks
 * (./chunked-list.ts). Writing a revision after editing one page inserts that page's version, its
 * ancestors' and the chunks holding them; every unchanged subtree, chunk and body is the row the
 * previous revision already points to, so a revision grows with what changed, not with the space.
 *
 * Snapshots are cached per process (they never change once written); callers must not mutate them.
 */
import type { Db } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { RevisionRow, RevisionsTable, SpaceRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import { encodeList, type ListRef, readLists, rememberListNodes, sha256 } from './chunked-list.js';
import type { JsonDocument } from './document.js';
import { type DocumentLink, extractLinks } from './links.js';
import { encodePageTree, type FreshRows, insertFreshRows, readPageTree } from './page-tree-store.js';
import type { FileEntry, PageNode, ReusableEntry } from './page-types.js';

export type { FileEntry, PageNode, PageType, ReusableEntry } from './page-types.js';
export { ownFields } from './page-types.js';

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

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/*
 * The inserts every edit of a page runs (an autosave, about once a second per editor), compiled
 * once (db/prepared.ts): building and compiling them with Kysely cost more CPU than running them.
 */
const insertDocument = prepare((db, p: { hash: string; body: string; links: string; created_at: string }) =>
  db
    .insertInto('content_documents')
    .values({ hash: p.hash, body: p.body, links: p.links, created_at: p.created_at })
    .onConflict((oc) => oc.column('hash').doNothing()),
);
const insertRevision = prepare((db, p: { [K in keyof RevisionsTable]: RevisionsTable[K] }) =>
  db.insertInto('revisions').values({
    id: p.id,
    space_id: p.space_id,
    parents: p.parents,
    type: p.type,
    pages: p.pages,
    files: p.files,
    reusable_contents: p.reusable_contents,
    merged_from: p.merged_from,
    created_by: p.created_by,
    created_at: p.created_at,
  }),
);

/** Stores a document body (once per content) and returns its hash. */
export async function putDocument(db: Db, document: JsonDocument): Promise<string> {
  const body = JSON.stringify(document);
  const hash = sha256(body);
  await insertDocument.all(db, { hash, body, links: JSON.stringify(extractLinks(document)), created_at: nowIso() });
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
  return remember(snapshots, row.id, await snapshotOfRow(db, row));
}

/** The revision row's columns a snapshot is read from. */
type RevisionColumns = Pick<
  RevisionRow,
  'id' | 'space_id' | 'parents' | 'type' | 'pages' | 'files' | 'reusable_contents' | 'merged_from' | 'created_at'
>;

/** The snapshot of a revision row; `written`: page versions known not to be in memory yet (hash → data). */
async function snapshotOfRow(db: Db, row: RevisionColumns, written?: Map<string, string>): Promise<Snapshot> {
  const [pages, [files, reusableContents]] = await Promise.all([
    readPageTree(db, JSON.parse(row.pages) as ListRef<string>, written),
    readLists<unknown>(db, [JSON.parse(row.files), JSON.parse(row.reusable_contents)]),
  ]);
  return {
    id: row.id,
    spaceId: row.space_id,
    parents: JSON.parse(row.parents) as string[],
    type: row.type === 'merge' || row.type === 'update' ? row.type : 'edits',
    createdAt: row.created_at,
    mergedFrom: row.merged_from,
    pages,
    files: files as FileEntry[],
    reusableContents: reusableContents as ReusableEntry[],
  };
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

/**
 * Writes a revision: the page versions and list chunks it does not share with stored revisions,
 * then the revision row.
 */
export async function writeRevision(db: Db, input: NewRevision): Promise<Snapshot> {
  const fresh: FreshRows = { pages: new Map(), lists: new Map() };
  const pages = encodePageTree(input.pages, fresh);
  const files = encodeList(input.files, (file) => file.id, fresh.lists);
  const reusableContents = encodeList(input.reusableContents, (entry) => entry.id, fresh.lists);
  await insertFreshRows(db, fresh);
  const now = nowIso();
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
  const row = {
    id: snapshot.id,
    space_id: snapshot.spaceId,
    parents: JSON.stringify(snapshot.parents),
    type: snapshot.type,
    pages: JSON.stringify(pages),
    files: JSON.stringify(files),
    reusable_contents: JSON.stringify(reusableContents),
    merged_from: snapshot.mergedFrom,
    created_by: input.createdBy,
    created_at: now,
  };
  await insertRevision.all(db, row);
  written.set(snapshot, { row, fresh });
  return snapshot;
}

/** What {@link writeRevision} stored, until the caller says it committed ({@link rememberWrittenRevision}). */
const written = new WeakMap<Snapshot, { row: RevisionColumns; fresh: FreshRows }>();

/**
 * Keeps a revision `writeRevision` wrote in memory, once the transaction that wrote it committed
 * (before, its rows may yet be rolled back), as {@link loadRevision} would read it back: the next
 * edit of a change request starts from the revision the previous one wrote, and reading it again
 * cost two statements (the revision row, the new page versions). Built from the rows written, not
 * from the objects given to `writeRevision` (the caller may still hold them).
 */
export async function rememberWrittenRevision(db: Db, snapshot: Snapshot): Promise<void> {
  const stored = written.get(snapshot);
  if (!stored || snapshots.has(snapshot.id)) return;
  written.delete(snapshot);
  rememberListNodes(stored.fresh.lists);
  const versions = new Map([...stored.fresh.pages].map(([hash, version]) => [hash, version.data]));
  remember(snapshots, snapshot.id, await snapshotOfRow(db, stored.row, versions));
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
