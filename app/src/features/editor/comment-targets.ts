/**
 * Where a change request's comments sit in the page being edited. The official Comment names its
 * place as `target.page.id` and `target.node.id` (a block's `key`); there is no range of text, so a
 * comment made on a selection quotes the selected text in its body. Pure: no DOM, no editor.
 */

/** A comment as the marker layer needs it (the official object's target, in either spelling). */
export interface PlacedComment {
  id: string;
  body?: { markdown?: string } | Record<string, unknown>;
  postedBy?: { displayName?: string };
  status?: string;
  target?: { page?: string | { id: string }; node?: string | { id: string } };
}

const idOf = (value: string | { id: string } | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

/** The page a comment is on, and its block's key when it names one. */
export function targetOf(comment: PlacedComment): { page?: string; node?: string } {
  return { page: idOf(comment.target?.page), node: idOf(comment.target?.node) };
}

/** The open comments on `pageId`, by block key ('' for those on the page as a whole), in order. */
export function commentsByBlock(comments: PlacedComment[], pageId: string): Map<string, PlacedComment[]> {
  const byBlock = new Map<string, PlacedComment[]>();
  for (const comment of comments) {
    const { page, node } = targetOf(comment);
    if (page !== pageId || comment.status === 'resolved') continue;
    const key = node ?? '';
    byBlock.set(key, [...(byBlock.get(key) ?? []), comment]);
  }
  return byBlock;
}

/** The comment's text (its Markdown body when read with `format=markdown`). */
export function commentText(comment: PlacedComment): string {
  const markdown = (comment.body as { markdown?: unknown } | undefined)?.markdown;
  return typeof markdown === 'string' ? markdown : '';
}

const QUOTE_LIMIT = 300;

/** The body of a comment made on `selected` text: the selection quoted, then what was written. */
export function selectionCommentBody(selected: string, text: string): string {
  const flat = selected.replace(/\s+/g, ' ').trim();
  const quoted = flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT - 1)}…` : flat;
  const comment = text.trim();
  return quoted ? `> ${quoted}\n\n${comment}` : comment;
}

/** A new block key, in the shape of the format's (letters and digits). */
export function newBlockKey(random: () => number = Math.random): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 20 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}

/** How a marker reads to a screen reader: "2 comments on this block". */
export function markerLabel(count: number, onPage: boolean): string {
  return `${count} comment${count === 1 ? '' : 's'} on this ${onPage ? 'page' : 'block'}`;
}
