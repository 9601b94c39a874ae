/**
 * What a revision changed against another (its parent): pages, files and reusable contents added,
 * edited, removed, and pages moved to another parent. Pure: it compares two snapshots by id, so it
 * costs no query (bodies are compared by their content hash, never loaded).
 *
 * A page whose position among the same siblings changed is not "moved": inserting or removing one
 * page shifts every later sibling, and reporting those would bury the real changes. Fields the
 * official change attributes cannot express (a page's `icon` or `hidden`) are not reported either.
 */
import type { ContentRef } from './document.js';
import {
  type FileEntry,
  type FlatPage,
  flattenPages,
  type PageNode,
  type PageType,
  type ReusableEntry,
} from './store.js';

export interface Change<T> {
  before?: T;
  after?: T;
}

/** A page as a change names it: its state after the change (before it, for a removal). */
export interface ChangedPage {
  id: string;
  type: PageType;
  title: string;
  path: string;
}

export interface PageAttributes {
  title?: Change<string>;
  description?: Change<string>;
  slug?: Change<string>;
  /** The body's content hash. */
  document?: Change<string>;
  emoji?: Change<string>;
  target?: Change<ContentRef>;
}

export interface FileAttributes {
  name?: Change<string>;
  contentType?: Change<string>;
  size?: Change<number>;
  /** The bytes' content hash (the download URL changes with it). */
  blob?: Change<string>;
  dimensions?: Change<{ width: number; height: number }>;
}

export interface ReusableAttributes {
  title?: Change<string>;
  document?: Change<string>;
}

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: PageAttributes }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: FileEntry }
  | { type: 'file_edited'; file: FileEntry; before: FileEntry; attributes: FileAttributes }
  | { type: 'reusable_content_created' | 'reusable_content_deleted'; reusableContent: ReusableEntry }
  | { type: 'reusable_content_edited'; reusableContent: ReusableEntry; attributes: ReusableAttributes };

/** The side of a content that is compared: a page tree, files and reusable contents. */
export interface Content {
  pages: PageNode[];
  files: FileEntry[];
  reusableContents: ReusableEntry[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The change of one field, or undefined when it is the same (an absent side is left out). */
function changed<T>(before: T | undefined, after: T | undefined): Change<T> | undefined {
  if (same(before, after)) return undefined;
  return { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

/** `attributes` without the fields that did not change; undefined when none did. */
function changedOnly<T extends object>(attributes: T): T | undefined {
  const entries = Object.entries(attributes).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as T) : undefined;
}

function changedPage(entry: FlatPage): ChangedPage {
  return { id: entry.page.id, type: entry.page.type, title: entry.page.title, path: entry.path };
}

/** The fields the official attributes of the page's type name (document, group or link). */
function pageAttributes(before: PageNode, after: PageNode): PageAttributes | undefined {
  const document = after.type === 'document';
  return changedOnly<PageAttributes>({
    title: changed(before.title, after.title),
    emoji: changed(before.emoji, after.emoji),
    slug: after.type !== 'link' ? changed(before.slug, after.slug) : undefined,
    description: document ? changed(before.description, after.description) : undefined,
    document: document ? changed(before.document, after.document) : undefined,
    target: after.type === 'link' ? changed(before.target, after.target) : undefined,
  });
}

function pageChanges(before: FlatPage[], after: FlatPage[]): SemanticChange[] {
  const old = new Map(before.map((e) => [e.page.id, e]));
  const now = new Map(after.map((e) => [e.page.id, e]));
  const out: SemanticChange[] = [];
  for (const entry of after) {
    const previous = old.get(entry.page.id);
    if (!previous) {
      out.push({ type: 'page_created', page: changedPage(entry) });
      continue;
    }
    if ((previous.parent?.id ?? null) !== (entry.parent?.id ?? null)) {
      const parentBefore = previous.parent ? old.get(previous.parent.id) : undefined;
      const parentAfter = entry.parent ? now.get(entry.parent.id) : undefined;
      out.push({
        type: 'page_moved',
        page: changedPage(entry),
        parent: {
          ...(parentBefore ? { before: changedPage(parentBefore) } : {}),
          ...(parentAfter ? { after: changedPage(parentAfter) } : {}),
        },
      });
    }
    const attributes = pageAttributes(previous.page, entry.page);
    if (attributes) out.push({ type: 'page_edited', page: changedPage(entry), attributes });
  }
  for (const entry of before) if (!now.has(entry.page.id)) out.push({ type: 'page_deleted', page: changedPage(entry) });
  return out;
}

function fileChanges(before: FileEntry[], after: FileEntry[]): SemanticChange[] {
  const old = new Map(before.map((f) => [f.id, f]));
  const ids = new Set(after.map((f) => f.id));
  const out: SemanticChange[] = [];
  for (const file of after) {
    const previous = old.get(file.id);
    if (!previous) {
      out.push({ type: 'file_created', file });
      continue;
    }
    const attributes = changedOnly<FileAttributes>({
      name: changed(previous.name, file.name),
      contentType: changed(previous.contentType, file.contentType),
      size: changed(previous.size, file.size),
      blob: changed(previous.blob, file.blob),
      dimensions: changed(previous.dimensions, file.dimensions),
    });
    if (attributes) out.push({ type: 'file_edited', file, before: previous, attributes });
  }
  for (const file of before) if (!ids.has(file.id)) out.push({ type: 'file_deleted', file });
  return out;
}

function reusableChanges(before: ReusableEntry[], after: ReusableEntry[]): SemanticChange[] {
  const old = new Map(before.map((r) => [r.id, r]));
  const ids = new Set(after.map((r) => r.id));
  const out: SemanticChange[] = [];
  for (const entry of after) {
    const previous = old.get(entry.id);
    if (!previous) {
      out.push({ type: 'reusable_content_created', reusableContent: entry });
      continue;
    }
    const attributes = changedOnly<ReusableAttributes>({
      title: changed(previous.title, entry.title),
      document: changed(previous.document, entry.document),
    });
    if (attributes) out.push({ type: 'reusable_content_edited', reusableContent: entry, attributes });
  }
  for (const entry of before) {
    if (!ids.has(entry.id)) out.push({ type: 'reusable_content_deleted', reusableContent: entry });
  }
  return out;
}

/**
 * The changes from `before` (the parent; empty for a first revision) to `after`: pages in the order
 * of the new tree (removed ones last, in the old tree's order), then files, then reusable contents.
 */
export function semanticChanges(before: Content, after: Content): SemanticChange[] {
  return [
    ...pageChanges(flattenPages(before.pages), flattenPages(after.pages)),
    ...fileChanges(before.files, after.files),
    ...reusableChanges(before.reusableContents, after.reusableContents),
  ];
}
