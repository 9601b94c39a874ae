/**
 * Markdown ⇄ document, through remark (CommonMark + GFM: tables, task lists, strikethrough) and
 * GitBook's `{% hint %}` blocks. A page body is stored once, as the document; Markdown is produced
 * from it on demand and parsed into it on write.
 */
import type { Root, RootContent } from 'mdast';
import type { Handle } from 'mdast-util-to-markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { type HeadingType, type Inline, inlineText, type JsonDocument } from './document.js';
import { mdastToDocument, type RefOptions } from './from-mdast.js';
import { HINT_CLOSE, HINT_OPEN, type HintNode, isHintStyle } from './mdast-hint.js';
import { documentToMdast, type MdastOptions } from './to-mdast.js';

const parser = unified().use(remarkParse).use(remarkGfm);

const hintHandler: Handle = (node, _parent, state, info) => {
  const hint = node as HintNode;
  const inner = state.containerFlow(hint, info);
  return `{% hint style="${hint.style}" %}\n${inner}\n{% endhint %}`;
};

const stringifier = unified()
  .use(remarkGfm)
  .use(remarkStringify, {
    bullet: '-',
    emphasis: '*',
    strong: '*',
    fence: '`',
    fences: true,
    rule: '-',
    listItemIndent: 'one',
    handlers: { hint: hintHandler },
  });

/**
 * Splits Markdown at top-level hint blocks (outside fenced code) and parses each part, so a hint's
 * content is ordinary Markdown. Hints do not nest; an unclosed `{% hint %}` stays text.
 */
export function parseMarkdown(markdown: string): Root {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const children: RootContent[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) children.push(...parser.parse(pending.join('\n')).children);
    pending = [];
  };
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1]) {
      const marker = fenceMatch[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    }
    const open = fence === null ? HINT_OPEN.exec(line) : null;
    const close = open?.[1] && isHintStyle(open[1]) ? findHintClose(lines, i + 1) : -1;
    if (open?.[1] && isHintStyle(open[1]) && close > 0) {
      flush();
      const inner = parseMarkdown(lines.slice(i + 1, close).join('\n'));
      children.push({ type: 'hint', style: open[1], children: inner.children as HintNode['children'] });
      i = close;
      continue;
    }
    pending.push(line);
  }
  flush();
  return { type: 'root', children };
}

function findHintClose(lines: string[], from: number): number {
  let fence: string | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] as string;
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1]) {
      const marker = fenceMatch[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    }
    if (fence === null && HINT_CLOSE.test(line)) return i;
    if (fence === null && HINT_OPEN.test(line)) return -1;
  }
  return -1;
}

export interface Frontmatter {
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
}

/** A leading `---` block of `key: value` lines (the subset GitBook writes), and the rest. */
export function splitFrontmatter(markdown: string): { meta: Frontmatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { meta: {}, body: markdown };
  const meta: Frontmatter = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const pair = /^(title|description|emoji|icon)\s*:\s*(.*)$/.exec(line.trim());
    if (!pair?.[1]) continue;
    const value = (pair[2] ?? '').replace(/^(["'])(.*)\1$/, '$2').trim();
    if (value) meta[pair[1] as keyof Frontmatter] = value;
  }
  return { meta, body: markdown.slice(match[0].length) };
}

export function markdownToDocument(markdown: string, options: RefOptions = {}): JsonDocument {
  return mdastToDocument(parseMarkdown(markdown), options);
}

export function documentToMarkdown(document: JsonDocument, options: MdastOptions = {}): string {
  const root = documentToMdast(document, options);
  return root.children.length === 0 ? '' : stringifier.stringify(root);
}

/**
 * When a document starts with a level-1 heading, returns its text and the document without it
 * (the heading then names the page, as in Git Sync and GitBook's Markdown imports).
 */
export function takeLeadingTitle(document: JsonDocument): { title: string; document: JsonDocument } | null {
  const [first, ...rest] = document.nodes;
  if (!first || first.type !== ('heading-1' satisfies HeadingType)) return null;
  const title = inlineText((first as { nodes: Inline[] }).nodes).trim();
  if (!title) return null;
  return { title, document: { ...document, nodes: rest } };
}
