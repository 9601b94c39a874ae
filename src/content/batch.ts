/**
 * The batch editor: applies a list of content changes (insert, update and delete pages, insert
 * files) to a copy of a revision's tree, all or nothing. The caller writes the result as one new
 * revision. Pages and files inserted in the batch get their ids first, so any document of the
 * batch can link to them by their `ref` (`[x](./<ref>.md)`, `![x](./<ref>)`), whatever the order.
 * Relative links written as in a Git Sync repository (`[x](../guide/install.md#setup)`) are
 * resolved against the batch's final tree, from where the linking page ends up (relative-links.ts),
 * so bodies are stored only once every change has been applied.
 */

import type { Db } from '../db/database.js';
import { checkDocumentModel, DocumentModelError } from '../document-model/index.js';
import { ApiError, badRequest } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { slugify, uniqueSlug } from '../lib/slug.js';
import { assertExpression } from '../sites/condition.js';
import type { ContentRef, JsonDocument } from './document.js';
import { type BatchOptions, storeFile } from './file-source.js';
import { checkDocumentLimits } from './limits.js';
import { markdownToDocument, splitFrontmatter, takeLeadingTitle } from './markdown.js';
import { gitPathIndex, pageGitPath, resolveRelativeLinks } from './relative-links.js';
import {
  type FileEntry,
  flattenPages,
  type PageNode,
  type PageType,
  putDocument,
  type ReusableEntry,
  type Snapshot,
} from './store.js';
import { cloneTree, contains, detach, insertAt, locate, requireFreeSlug, slugsOf } from './tree.js';

export type DocumentInput = { markdown: string } | { document: JsonDocument } | Record<string, never>;

export interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  /** Adaptive-content condition (an expression over `visitor.claims`); an empty string removes it. */
  condition?: string;
  /** Bindery extension: `group` and `link` pages (default `document`). */
  type?: PageType;
  /** Link pages: the target. */
  target?: ContentRef;
}

export type Change =
  | (PageFields & { operation: 'insert_page'; into?: string; at?: number; ref?: string; document?: DocumentInput })
  | (PageFields & {
      operation: 'update_page';
      page: string;
      into?: string | null;
      at?: number;
      document?: DocumentInput;
    })
  | { operation: 'delete_page'; page: string }
  | {
      operation: 'insert_files';
      files: Array<{
        ref?: string;
        name: string;
        contentType?: string;
        url?: string;
        base64?: string;
        storageKey?: string;
      }>;
    }
  | { operation: 'insert_reusable_content'; title: string; ref?: string; document?: DocumentInput }
  | { operation: 'update_reusable_content'; reusableContent: string; title?: string; document?: DocumentInput }
  | { operation: 'delete_reusable_content'; reusableContent: string };

export type ChangeOutcome =
  | { object: 'created_page'; ref?: string; page: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string }
  | { object: 'created_reusable_content'; ref?: string; reusableContent: string }
  | { object: 'updated_reusable_content'; reusableContent: string }
  | { object: 'deleted_reusable_content'; reusableContent: string };

export interface BatchResult {
  pages: PageNode[];
  files: FileEntry[];
  reusableContents: ReusableEntry[];
  changes: ChangeOutcome[];
  insertedFiles: FileEntry[];
}

export type { BatchOptions } from './file-source.js';

/**
 * A page body from the accepted inputs, with what Markdown front matter says about the page; 413 or
 * 400 (the message starting with `at`) past the content limits (limits.ts).
 */
export function readDocumentInput(
  input: DocumentInput | undefined,
  resolveUrl?: (url: string) => ContentRef | null,
  at = 'document',
): { document: JsonDocument | null; title?: string; description?: string; emoji?: string; headingTitle?: string } {
  if (!input || (!('markdown' in input) && !('document' in input))) return { document: null };
  try {
    if ('document' in input) {
      checkDocumentLimits(input.document);
      checkEditable(input.document);
      return { document: input.document as JsonDocument };
    }
    const { meta, body } = splitFrontmatter(input.markdown as string);
    const document = markdownToDocument(body, { resolveUrl });
    const leading = takeLeadingTitle(document);
    return {
      document,
      ...(meta.title ? { title: meta.title } : {}),
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.emoji ? { emoji: meta.emoji } : {}),
      ...(leading ? { headingTitle: leading.title } : {}),
    };
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(error.statusCode, `${at}/${'document' in input ? 'document' : 'markdown'}: ${error.message}`);
    }
    throw error;
  }
}

/** 400 naming the path when the editor could not hold the document (src/document-model). */
function checkEditable(document: unknown): void {
  try {
    checkDocumentModel(document);
  } catch (error) {
    if (error instanceof DocumentModelError) throw badRequest(error.message);
    throw error;
  }
}

/** Lets other requests run between two bodies of a batch (each parse holds the event loop). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function where(index: number): string {
  return `body/changes/${index}`;
}

function applyFields(page: PageNode, fields: PageFields): void {
  if (fields.title !== undefined) page.title = fields.title;
  if (fields.description !== undefined) page.description = fields.description || undefined;
  if (fields.emoji !== undefined) page.emoji = fields.emoji || undefined;
  if (fields.icon !== undefined) page.icon = fields.icon || undefined;
  if (fields.hidden !== undefined) page.hidden = fields.hidden || undefined;
  if (fields.target !== undefined) page.target = fields.target;
  if (fields.condition !== undefined) page.condition = fields.condition.trim() ? fields.condition : undefined;
  // Absent optional fields are dropped, so a page version hashes the same however it was made.
  for (const key of Object.keys(page) as Array<keyof PageNode>) if (page[key] === undefined) delete page[key];
}

/**
 * A new page's path follows its title, as GitBook's editor does: while the page is new in the change
 * request and its path is still the one its previous title gave (`untitled`, `untitled-2`…), a new
 * title gives a new path. A path the writer chose (another slug) stays, and so does a published
 * page's (its links out there would break).
 */
async function followTitle(page: PageNode, previousTitle: string, pages: PageNode[], options: BatchOptions) {
  const derived = slugify(previousTitle);
  const fromTitle = page.slug === derived || new RegExp(`^${derived.slice(0, 96)}-\\d+$`).test(page.slug);
  if (!fromTitle || !options.isNewPage || !(await options.isNewPage(page.id))) return;
  const here = locate(pages, page.id) as NonNullable<ReturnType<typeof locate>>;
  page.slug = uniqueSlug(
    slugify(page.title),
    here.siblings.filter((s) => s !== page).map((s) => s.slug),
  );
}

/** Checks where a page may live: groups only at the top, nothing under a link page. */
function checkPlacement(page: PageNode, parent: PageNode | null, at: string): void {
  if (page.type === 'group' && parent) throw badRequest(`${at}: a group page can only be at the top level`);
  if (parent?.type === 'link') throw badRequest(`${at}: a link page cannot have child pages`);
}

export async function applyBatch(
  db: Db,
  base: Snapshot,
  changes: Change[],
  options: BatchOptions,
): Promise<BatchResult> {
  const pages = cloneTree(base.pages);
  const files = [...base.files];
  const reusableContents = base.reusableContents.map((r) => ({ ...r }));
  const outcomes = new Map<string, ChangeOutcome>();
  const insertedFiles: FileEntry[] = [];

  // Ids of everything the batch inserts, by ref, before any document is read.
  const refs = new Map<string, ContentRef>();
  const pageIds = new Map<number, string>();
  /** Where each page ref is inserted: `into` may name a page by the ref of an earlier insert. */
  const refIndex = new Map<string, number>();
  const fileIds = new Map<string, string>();
  changes.forEach((change, i) => {
    if (change.operation === 'insert_page') {
      const id = newId();
      pageIds.set(i, id);
      if (change.ref) {
        if (refs.has(change.ref)) throw badRequest(`${where(i)}/ref "${change.ref}" is used twice in the batch`);
        refs.set(change.ref, { kind: 'page', page: id });
        refIndex.set(change.ref, i);
      }
    } else if (change.operation === 'insert_files') {
      change.files.forEach((file, j) => {
        const id = newId();
        fileIds.set(`${i}/${j}`, id);
        if (file.ref) {
          if (refs.has(file.ref))
            throw badRequest(`${where(i)}/files/${j}/ref "${file.ref}" is used twice in the batch`);
          refs.set(file.ref, { kind: 'file', file: id });
        }
      });
    }
  });
  /**
   * The parent `into` names: a page of the tree by id, or by the ref of a page inserted earlier in
   * the batch (a page id wins: ids are the stable form); a 400 when it names nothing (yet).
   */
  const parentNamed = (into: string, i: number): PageNode => {
    const byId = locate(pages, into)?.page;
    if (byId) return byId;
    const index = refIndex.get(into);
    if (index !== undefined && index > i) {
      throw badRequest(
        `${where(i)}/into: "${into}" is the ref of a page inserted later in the batch (changes/${index}); insert it first`,
      );
    }
    const byRef = index === undefined ? undefined : locate(pages, pageIds.get(index) as string)?.page;
    if (!byRef) throw badRequest(`${where(i)}/into: page ${into} is not in the change request`);
    return byRef;
  };
  const resolveUrl = (url: string): ContentRef | null => {
    const bare = url.replace(/^\.\//, '');
    return refs.get(bare) ?? refs.get(bare.replace(/\.md$/, '')) ?? null;
  };

  // Bodies written by the batch, stored at the end (see the header): by page and reusable content id.
  const pageBodies = new Map<string, JsonDocument | null>();
  const reusableBodies = new Map<string, JsonDocument | null>();
  const body = (input: DocumentInput | undefined, at: string) => readDocumentInput(input, resolveUrl, `${at}/document`);

  for (const [i, change] of changes.entries()) {
    if (i > 0 && 'document' in change && change.document !== undefined) await nextTurn();
    const at = where(i);
    if ((change.operation === 'insert_page' || change.operation === 'update_page') && change.condition?.trim()) {
      assertExpression(change.condition, `${at}/condition`);
    }
    if (change.operation === 'insert_page') {
      const parent = change.into ? parentNamed(change.into, i) : null;
      const siblings = parent ? parent.children : pages;
      const type = change.type ?? 'document';
      if (type === 'link' && !change.target) throw badRequest(`${at}/target is required for a link page`);
      const read = type === 'document' ? body(change.document, at) : { document: null };
      const explicitTitle = 'title' in read && read.title ? read.title : change.title;
      const headingTitle = 'headingTitle' in read ? read.headingTitle : undefined;
      let document = read.document;
      let title = explicitTitle;
      if (!title && headingTitle && document) {
        // The leading heading names the page and leaves the body.
        title = headingTitle;
        document = takeLeadingTitle(document)?.document ?? null;
      }
      title ||= 'Untitled';
      if (change.slug !== undefined) requireFreeSlug(change.slug, siblings);
      const page: PageNode = {
        id: pageIds.get(i) as string,
        type,
        title,
        slug: change.slug ?? uniqueSlug(slugify(title), slugsOf(siblings)),
        children: [],
      };
      if (document) pageBodies.set(page.id, document);
      applyFields(page, {
        ...change,
        title,
        description: ('description' in read ? read.description : undefined) ?? change.description,
        emoji: ('emoji' in read ? read.emoji : undefined) ?? change.emoji,
      });
      checkPlacement(page, parent, at);
      insertAt(siblings, page, change.at);
      outcomes.set(page.id, { object: 'created_page', ...(change.ref ? { ref: change.ref } : {}), page: page.id });
    } else if (change.operation === 'update_page') {
      const found = locate(pages, change.page);
      if (!found) throw badRequest(`${at}/page: page ${change.page} is not in the change request`);
      const { page } = found;
      if (change.type !== undefined && change.type !== page.type) {
        throw badRequest(`${at}/type: the type of a page cannot change`);
      }
      if (change.document !== undefined) {
        if (page.type !== 'document') throw badRequest(`${at}/document: only document pages have a body`);
        const read = body(change.document, at);
        pageBodies.set(page.id, read.document);
        applyFields(page, { title: read.title, description: read.description, emoji: read.emoji });
      }
      const previousTitle = page.title;
      applyFields(page, change);
      if (change.slug === undefined && page.title !== previousTitle)
        await followTitle(page, previousTitle, pages, options);
      if (change.into !== undefined || change.at !== undefined) {
        const parent =
          change.into === undefined ? found.parent : change.into === null ? null : parentNamed(change.into, i);
        if (parent && contains(page, parent.id))
          throw badRequest(`${at}/into: a page cannot move into itself or its own subpages`);
        checkPlacement(page, parent, at);
        const sameParent = parent === found.parent;
        detach(pages, page.id);
        const siblings = parent ? parent.children : pages;
        if (!sameParent) page.slug = change.slug ?? uniqueSlug(page.slug, slugsOf(siblings));
        insertAt(siblings, page, change.at);
      }
      if (change.slug !== undefined) {
        const here = locate(pages, page.id) as NonNullable<ReturnType<typeof locate>>;
        requireFreeSlug(change.slug, here.siblings, page);
        page.slug = change.slug;
      }
      if (!outcomes.has(page.id)) outcomes.set(page.id, { object: 'updated_page', page: page.id });
    } else if (change.operation === 'delete_page') {
      const removed = detach(pages, change.page);
      if (!removed) throw badRequest(`${at}/page: page ${change.page} is not in the change request`);
      const gone = (page: PageNode) => {
        outcomes.delete(page.id);
        page.children.forEach(gone);
      };
      gone(removed.page);
      outcomes.set(change.page, { object: 'deleted_page', page: change.page });
    } else if (change.operation === 'insert_reusable_content') {
      const entry: ReusableEntry = { id: newId(), title: change.title };
      reusableBodies.set(entry.id, body(change.document, at).document);
      reusableContents.push(entry);
      outcomes.set(entry.id, {
        object: 'created_reusable_content',
        ...(change.ref ? { ref: change.ref } : {}),
        reusableContent: entry.id,
      });
    } else if (change.operation === 'update_reusable_content') {
      const entry = reusableContents.find((r) => r.id === change.reusableContent);
      if (!entry) throw badRequest(`${at}/reusableContent: ${change.reusableContent} is not in the change request`);
      if (change.title !== undefined) entry.title = change.title;
      if (change.document !== undefined) reusableBodies.set(entry.id, body(change.document, at).document);
      if (!outcomes.has(entry.id))
        outcomes.set(entry.id, { object: 'updated_reusable_content', reusableContent: entry.id });
    } else if (change.operation === 'delete_reusable_content') {
      const index = reusableContents.findIndex((r) => r.id === change.reusableContent);
      if (index < 0) throw badRequest(`${at}/reusableContent: ${change.reusableContent} is not in the change request`);
      reusableContents.splice(index, 1);
      outcomes.set(change.reusableContent, {
        object: 'deleted_reusable_content',
        reusableContent: change.reusableContent,
      });
    } else {
      for (const [j, file] of change.files.entries()) {
        const entry = await storeFile(db, file, `${at}/files/${j}`, fileIds.get(`${i}/${j}`) as string, options);
        files.push(entry);
        insertedFiles.push(entry);
      }
    }
  }
  await storeBodies(db, pages, files, pageBodies, reusableContents, reusableBodies);
  return { pages, files, reusableContents, changes: [...outcomes.values()], insertedFiles };
}

/**
 * Stores the bodies the batch wrote, their relative links resolved from where each page ends up
 * (pages deleted later in the batch are gone from the tree and skipped). Reusable contents live in
 * `.gitbook/includes/`, but authors link from them as from the root: both are tried.
 */
async function storeBodies(
  db: Db,
  pages: PageNode[],
  files: FileEntry[],
  pageBodies: Map<string, JsonDocument | null>,
  reusableContents: ReusableEntry[],
  reusableBodies: Map<string, JsonDocument | null>,
): Promise<void> {
  if (pageBodies.size === 0 && reusableBodies.size === 0) return;
  const index = gitPathIndex(pages, files);
  const put = async (document: JsonDocument | null | undefined) =>
    document && document.nodes.length > 0 ? putDocument(db, document) : undefined;
  for (const entry of flattenPages(pages)) {
    if (!pageBodies.has(entry.page.id)) continue;
    const document = pageBodies.get(entry.page.id);
    const hash = await put(document && resolveRelativeLinks(document, pageGitPath(entry), index));
    if (hash) entry.page.document = hash;
    else delete entry.page.document;
  }
  for (const entry of reusableContents) {
    if (!reusableBodies.has(entry.id)) continue;
    const document = reusableBodies.get(entry.id);
    const fromIncludes = document && resolveRelativeLinks(document, `.gitbook/includes/${entry.id}.md`, index);
    const hash = await put(fromIncludes && resolveRelativeLinks(fromIncludes, 'README.md', index));
    if (hash) entry.document = hash;
    else delete entry.document;
  }
}
