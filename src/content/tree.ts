/**
 * Edits of a page tree in memory (the batch editor and importers work on a copy, then write it as
 * one new revision): find, insert, detach, slugs.
 */
import { badRequest } from '../core/errors.js';
import type { PageNode } from './store.js';

/** A URL slug from a title: lower case ASCII letters and digits separated by `-`, at most 100 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug || 'page';
}

/** `base`, or `base-2`, `base-3`, … whichever no sibling uses. */
export function uniqueSlug(base: string, siblings: PageNode[], except?: PageNode): string {
  const taken = new Set(siblings.filter((s) => s !== except).map((s) => s.slug));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base.slice(0, 96)}-${i}`;
    if (!taken.has(candidate)) return candidate;
  }
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

/** Deep copy of a tree (snapshots are shared and must not be mutated). */
export function cloneTree(pages: PageNode[]): PageNode[] {
  return pages.map((page) => ({ ...page, children: cloneTree(page.children) }));
}
