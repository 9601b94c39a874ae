/** What a revision holds: its page tree, files and reusable contents (see ./store.ts). */
import type { ContentRef } from './document.js';

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

/** The page's own fields, without children: what a merge compares. */
export function ownFields(page: PageNode): Omit<PageNode, 'children'> {
  const { children: _children, ...own } = page;
  return own;
}
