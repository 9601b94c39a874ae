/**
 * Edits of a page tree in memory (the batch editor and importers work on a copy, then write it as
 * one new revision): find, insert, detach, slugs.
 */
import { badRequest } from '../lib/errors.js';
import { markCopies, originalsOf } from './page-tree-store.js';
import type { PageNode } from './page-types.js';

/** The slugs a list of sibling pages uses (what a new sibling's slug must avoid). */
export function slugsOf(siblings: PageNode[]): string[] {
  return siblings.map((s) => s.slug);
}

/** 400 when an explicit slug is already used by a sibling. */
export function requireFreeSlug(slug: string, siblings: PageNode[], except?: PageNode): void {
  if (siblings.some((s) => s !== except && s.slug === slug)) {
    throw badRequest(`slug "${slug}" is already used by a sibling page`);
  }
}

export interface Located {
  page: PageNode;
  /** The list holding the page (the root list or the parent's children). */
  siblings: PageNode[];
  parent: PageNode | null;
}

export function locate(pages: PageNode[], pageId: string, parent: PageNode | null = null): Located | undefined {
  for (const page of pages) {
    if (page.id === pageId) return { page, siblings: pages, parent };
    const found = locate(page.children, pageId, page);
    if (found) return found;
  }
  return undefined;
}

export function contains(page: PageNode, pageId: string): boolean {
  return page.id === pageId || page.children.some((child) => contains(child, pageId));
}

/** Removes the page from its list; returns where it was. */
export function detach(pages: PageNode[], pageId: string): Located | undefined {
  const found = locate(pages, pageId);
  if (!found) return undefined;
  found.siblings.splice(found.siblings.indexOf(found.page), 1);
  return found;
}

/** Inserts `page` at `at` (clamped; end when absent). */
export function insertAt(list: PageNode[], page: PageNode, at?: number): void {
  const index = at === undefined ? list.length : Math.min(Math.max(at, 0), list.length);
  list.splice(index, 0, page);
}

export function allPageIds(pages: PageNode[]): Set<string> {
  const ids = new Set<string>();
  const visit = (list: PageNode[]) => {
    for (const page of list) {
      ids.add(page.id);
      visit(page.children);
    }
  };
  visit(pages);
  return ids;
}

/**
 * Deep copy of a tree (snapshots are shared and must not be mutated). Each copy remembers its
 * original, so that writing the tree does not hash again the pages left as they were.
 */
export function cloneTree(pages: PageNode[]): PageNode[] {
  // A copy of a copy remembers the page the first copy was made from (the one that has a stored hash).
  const before = originalsOf(pages);
  const originals = new Map<PageNode, PageNode>();
  const copyList = (list: PageNode[]): PageNode[] =>
    list.map((page) => {
      const copy = { ...page, children: copyList(page.children) };
      originals.set(copy, before?.get(page) ?? page);
      return copy;
    });
  const tree = copyList(pages);
  markCopies(tree, originals);
  return tree;
}
