/**
 * Which block a comment is anchored to, and which comments belong where. A block is named by its
 * `key` when the document gives it one (the official target `node`); blocks written from Markdown
 * have none, so they are named by their position among the page's top-level blocks.
 */
import type { DocumentNode } from '../document/types';
import type { Comment } from './types';

/** The id a comment on the top-level block `node` at `index` is anchored to. */
export function blockAnchor(node: DocumentNode, index: number): string {
  const key = (node as { key?: unknown }).key;
  return typeof key === 'string' && key ? key : `block-${index}`;
}

/** The page's comments split into the page's own threads and each block's, in their order. */
export function threadsOfPage(
  comments: readonly Comment[],
  pageId: string,
): { page: Comment[]; blocks: Map<string, Comment[]> } {
  const page: Comment[] = [];
  const blocks = new Map<string, Comment[]>();
  for (const comment of comments) {
    if (comment.target?.page?.id !== pageId) continue;
    const node = comment.target.node?.id;
    if (!node) {
      page.push(comment);
      continue;
    }
    const list = blocks.get(node) ?? [];
    list.push(comment);
    blocks.set(node, list);
  }
  return { page, blocks };
}

/** The comments about the whole scope (a change request's conversation): those on no page. */
export function generalThreads(comments: readonly Comment[]): Comment[] {
  return comments.filter((comment) => !comment.target?.page);
}

/** A block named for people by its first words (a button's label), or by its type when it has no text. */
export function blockLabel(node: DocumentNode, words = 6): string {
  const text = textOf(node).replace(/\s+/g, ' ').trim();
  if (!text) return (node as { type?: string }).type ?? 'block';
  const parts = text.split(' ');
  return parts.length > words ? `${parts.slice(0, words).join(' ')}…` : text;
}

function textOf(node: DocumentNode): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map(textOf).join(' ');
}

/** Every comment on the page, its blocks' included. */
export function commentsOnPage(comments: readonly Comment[], pageId: string): Comment[] {
  return comments.filter((comment) => comment.target?.page?.id === pageId);
}
