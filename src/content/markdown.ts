/**
 * Markdown ⇄ document, through remark (CommonMark + GFM: tables, task lists, strikethrough) and
 * GitBook's `{% hint %}`, `{% tabs %}`, `{% embed %}` and `{% include %}` blocks. A page body is stored once, as the document; Markdown is produced
 * from it on demand and parsed into it on write.
 */
import type { Root, RootContent } from 'mdast';
import type { Handle } from 'mdast-util-to-markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { type HeadingType, type Inline, inlineText, type JsonDocument } from './document.js';
import { mdastToDocument } from './from-mdast.js';
import {
  decodeTitle,
  EMBED,
  EMBED_CLOSE,
  type EmbedNode,
  encodeTitle,
  HINT_CLOSE,
  HINT_OPEN,
  type HintNode,
  INCLUDE,
  type IncludeNode,
  isHintStyle,
  TAB_CLOSE,
  TAB_OPEN,
  TABS_CLOSE,
  TABS_OPEN,
  type TabNode,
  type TabsNode,
} from './mdast-hint.js';
import type { RefOptions } from './refs.js';
import { documentToMdast, type MdastOptions } from './to-mdast.js';

const parser = unified().use(remarkParse).use(remarkGfm);

const hintHandler: Handle = (node, _parent, state, info) => {
  const hint = node as HintNode;
  const inner = state.containerFlow(hint, info);
  return `{% hint style="${hint.style}" %}\n${inner}\n{% endhint %}`;
};

const tabsHandler: Handle = (node, _parent, state, info) => {
  const tabs = (node as TabsNode).children.map(
    (tab) => `{% tab title="${encodeTitle(tab.title)}" %}\n${state.containerFlow(tab, info)}\n{% endtab %}`,
  );
  return `{% tabs %}\n${tabs.join('\n\n')}\n{% endtabs %}`;
};

const embedHandler: Handle = (node) => `{% embed url="${encodeTitle((node as EmbedNode).url)}" %}`;

const includeHandler: Handle = (node) => `{% include "${(node as IncludeNode).url.replace(/"/g, '%22')}" %}`;

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
    handlers: { hint: hintHandler, tabs: tabsHandler, embed: embedHandler, include: includeHandler },
  });

/** The fence state after `line`: the open fence marker, or null outside fenced code. */
function fenceAfter(line: string, fence: string | null): string | null {
  const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
  if (!marker) return fence;
  if (fence === null) return marker;
  return marker[0] === fence[0] && marker.length >= fence.length ? null : fence;
}

/**
 * The line closing a block tag opened before `from` (nested opens of the same tag counted), outside
 * fenced code; -1 when it is not closed. With `flat`, another open first means it is not closed.
 */
function findClose(lines: string[], from: number, open: RegExp, close: RegExp, flat = false): number {
  let fence: string | null = null;
  let depth = 0;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] as string;
    fence = fenceAfter(line, fence);
    if (fence !== null) continue;
    if (close.test(line)) {
      if (depth === 0) return i;
      depth--;
    } else if (open.test(line)) {
      if (flat) return -1;
      depth++;
    }
  }
  return -1;
}

/** The tabs of a `{% tabs %}` block's inner lines (text outside `{% tab %}` blocks is dropped). */
function parseTabs(lines: string[]): TabNode[] {
  const tabs: TabNode[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = TAB_OPEN.exec(lines[i] as string);
    if (!open) continue;
    const close = findClose(lines, i + 1, TAB_OPEN, TAB_CLOSE);
    const end = close < 0 ? lines.length : close;
    const inner = parseMarkdown(lines.slice(i + 1, end).join('\n'));
    tabs.push({ type: 'tab', title: decodeTitle(open[1] ?? ''), children: inner.children as TabNode['children'] });
    i = end;
  }
  return tabs;
}

/**
 * Splits Markdown at GitBook's block tags (outside fenced code): hints and tabs hold Markdown of
 * their own, parsed the same way; an embed is one line (an `{% endembed %}` after a caption is
 * dropped, the caption stays text), and so is an include. Hints do not nest; an unclosed tag stays text.
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
    fence = fenceAfter(line, fence);
    if (fence === null) {
      const hint = HINT_OPEN.exec(line);
      const hintClose = hint?.[1] && isHintStyle(hint[1]) ? findClose(lines, i + 1, HINT_OPEN, HINT_CLOSE, true) : -1;
      if (hint?.[1] && isHintStyle(hint[1]) && hintClose > 0) {
        flush();
        const inner = parseMarkdown(lines.slice(i + 1, hintClose).join('\n'));
        children.push({ type: 'hint', style: hint[1], children: inner.children as HintNode['children'] });
        i = hintClose;
        continue;
      }
      const tabsClose = TABS_OPEN.test(line) ? findClose(lines, i + 1, TABS_OPEN, TABS_CLOSE) : -1;
      if (tabsClose > 0) {
        flush();
        children.push({ type: 'tabs', children: parseTabs(lines.slice(i + 1, tabsClose)) });
        i = tabsClose;
        continue;
      }
      const embed = EMBED.exec(line);
      if (embed?.[1]) {
        flush();
        children.push({ type: 'embed', url: decodeTitle(embed[1]) });
        continue;
      }
      if (EMBED_CLOSE.test(line)) continue;
      const include = INCLUDE.exec(line);
      const includeUrl = include?.[1] ?? include?.[2];
      if (includeUrl) {
        flush();
        children.push({ type: 'include', url: includeUrl });
        continue;
      }
    }
    pending.push(line);
  }
  flush();
  return { type: 'root', children };
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
