/**
 * What one page body may cost to read, in one place. A body is parsed on the event loop (Markdown by
 * remark, GitBook's block tags by markdown.ts), so each bound below caps the work one request can
 * make the whole process do; past one, the write is refused with the error envelope: 413 for size,
 * 400 for structure. The same bounds hold for a body written as Markdown and one given as the JSON
 * document.
 */
import { badRequest, payloadTooLarge } from '../lib/errors.js';

export const CONTENT_LIMITS = {
  /** UTF-8 bytes of one Markdown body (413 beyond). */
  markdownBytes: 512 * 1024,
  /** Lines of one Markdown body (400 beyond): remark's work grows with the blocks, so with the lines. */
  markdownLines: 20_000,
  /** Bytes of one document given as JSON, serialized (413 beyond); a document is ~5× its Markdown. */
  documentJsonBytes: 8 * 1024 * 1024,
  /**
   * Blocks inside blocks (hints, tabs and their tabs, quotes, list items; 400 beyond). In Markdown a
   * line counts its block tags around it, its `>` and list markers, and a level per two columns of
   * indentation (remark's work on a line grows with the square of its nesting).
   */
  nestingDepth: 32,
  /**
   * The nesting of every line of a Markdown body, summed (400 beyond): remark's work on a line grows
   * with its nesting (each quote or list level is checked again on every line inside it).
   */
  nestingTotal: 40_000,
  /** GitBook block tags (`{% hint %}`, `{% tabs %}`, `{% embed %}`, …) in one Markdown body (400 beyond). */
  blockTags: 10_000,
  /** Blocks of one document, those of list items and table cells included (400 beyond). */
  blocks: 20_000,
  /** Objects and arrays inside one another in a JSON document (400 beyond): its blocks, inlines and data. */
  documentJsonDepth: 256,
} as const;

/** 413 when `markdown` is larger than {@link CONTENT_LIMITS.markdownBytes}. */
export function checkMarkdownSize(markdown: string): void {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: count exactly only near the limit.
  if (markdown.length * 3 <= CONTENT_LIMITS.markdownBytes) return;
  const bytes = Buffer.byteLength(markdown);
  if (bytes > CONTENT_LIMITS.markdownBytes) {
    throw payloadTooLarge(`the Markdown is ${bytes} bytes; the limit is ${CONTENT_LIMITS.markdownBytes}`);
  }
}

export function tooDeep(where: string): Error {
  return badRequest(`${where} nests blocks deeper than ${CONTENT_LIMITS.nestingDepth} levels`);
}

export function tooManyBlocks(count: number): Error {
  return badRequest(`the document has ${count} blocks or more; the limit is ${CONTENT_LIMITS.blocks}`);
}

/**
 * Checks a document given as JSON against the limits, without recursion (its nesting is what is
 * checked): JSON depth, block nesting, block count, then its serialized size.
 */
export function checkDocumentLimits(document: unknown): void {
  let blocks = 0;
  // [value, JSON depth, block depth]
  const stack: Array<[unknown, number, number]> = [[document, 1, 0]];
  while (stack.length > 0) {
    const [value, depth, blockDepth] = stack.pop() as [unknown, number, number];
    if (depth > CONTENT_LIMITS.documentJsonDepth) {
      throw badRequest(`the document nests objects and arrays deeper than ${CONTENT_LIMITS.documentJsonDepth} levels`);
    }
    if (Array.isArray(value)) {
      for (const item of value)
        if (item !== null && typeof item === 'object') stack.push([item, depth + 1, blockDepth]);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    let inner = blockDepth;
    if ((value as { object?: unknown }).object === 'block') {
      if (++blocks > CONTENT_LIMITS.blocks) throw tooManyBlocks(blocks);
      inner = blockDepth + 1;
      if (inner > CONTENT_LIMITS.nestingDepth) throw tooDeep('the document');
    }
    for (const child of Object.values(value)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1, inner]);
    }
  }
  // Safe to serialize now that the depth is bounded.
  const bytes = Buffer.byteLength(JSON.stringify(document));
  if (bytes > CONTENT_LIMITS.documentJsonBytes) {
    throw payloadTooLarge(`the document is ${bytes} bytes as JSON; the limit is ${CONTENT_LIMITS.documentJsonBytes}`);
  }
}

/** 400 when a document made by the parser (so shallow enough to walk) has more blocks than the limit. */
export function checkBlockCount(nodes: ReadonlyArray<unknown>): void {
  let count = 0;
  const stack: unknown[] = [...nodes];
  const push = (children: unknown) => {
    if (Array.isArray(children)) for (const child of children) stack.push(child);
  };
  while (stack.length > 0) {
    const node = stack.pop() as { object?: unknown; nodes?: unknown; fragments?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.object === 'block' && ++count > CONTENT_LIMITS.blocks) throw tooManyBlocks(count);
    push(node.nodes);
    push(node.fragments);
  }
}
