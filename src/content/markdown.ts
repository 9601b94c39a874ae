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
import { type ScannedLines, scanLines } from './block-tags.js';
import { type HeadingType, type Inline, inlineText, type JsonDocument } from './document.js';
import { mdastToDocument } from './from-mdast.js';
import { CONTENT_LIMITS, checkBlockCount, checkMarkdownSize, tooDeep } from './limits.js';
import {
  decodeTitle,
  EMBED,
  type EmbedNode,
  encodeTitle,
  HINT_OPEN,
  type HintNode,
  INCLUDE,
  type IncludeNode,
  isHintStyle,
  TAB_OPEN,
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

/** What parsing cost, counted (the tests check the work grows linearly with the input). */
export interface ParseStats {
  /** Lines visited by the block-tag parser, at every level. */
  lines: number;
  /** Calls of remark's parser, and the characters they were given. */
  remarkCalls: number;
  remarkChars: number;
}

interface Parse {
  scan: ScannedLines;
  stats: ParseStats;
}

/** The tabs of the `{% tabs %}` block on lines [from, to) (text outside `{% tab %}` blocks is dropped). */
function parseTabs(parse: Parse, from: number, to: number, depth: number): TabNode[] {
  const { lines, tags, close } = parse.scan;
  const tabs: TabNode[] = [];
  for (let i = from; i < to; i++) {
    parse.stats.lines++;
    if (tags[i] !== 'tab') continue;
    const title = TAB_OPEN.exec(lines[i] as string)?.[1] ?? '';
    const paired = close[i] as number;
    // An unclosed tab runs to the end of its tabs.
    const end = paired >= 0 && paired < to ? paired : to;
    const children = parseBlocks(parse, i + 1, end, depth + 1);
    tabs.push({ type: 'tab', title: decodeTitle(title), children: children as TabNode['children'] });
    i = end;
  }
  return tabs;
}

/**
 * One line of plain words: letters, digits, single spaces and punctuation that means nothing to
 * CommonMark or GFM where it stands, from a letter (so no list marker) to a character that is not a
 * space; with no `www.` (which GFM makes a link). remark reads such a line as one paragraph of that
 * very text, and a call of remark costs ~0.3 ms whatever its length (it combines its syntax
 * extensions anew on every call): most of the CPU of a short comment.
 */
const PLAIN_LINE = /^\p{L}(?:[\p{L}\p{N},.;:!?'"()-]| (?! ))*$/u;

function isPlainLine(text: string): boolean {
  return PLAIN_LINE.test(text) && !text.endsWith(' ') && !/www\./i.test(text);
}

/** The paragraph remark makes of a plain line ({@link isPlainLine}), positions included. */
function plainParagraph(text: string): RootContent {
  const position = () => ({
    start: { line: 1, column: 1, offset: 0 },
    end: { line: 1, column: text.length + 1, offset: text.length },
  });
  return { type: 'paragraph', children: [{ type: 'text', value: text, position: position() }], position: position() };
}

/** The blocks of lines [from, to), `depth` blocks deep (see the header of block-tags.ts). */
function parseBlocks(parse: Parse, from: number, to: number, depth: number): RootContent[] {
  const { scan, stats } = parse;
  const { lines, tags, close, nesting } = scan;
  if (depth > CONTENT_LIMITS.nestingDepth) throw tooDeep(`line ${from} of the Markdown`);
  const children: RootContent[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('\n');
    pending = [];
    if (isPlainLine(text)) {
      children.push(plainParagraph(text));
      return;
    }
    stats.remarkCalls++;
    stats.remarkChars += text.length;
    // Not push(...): a long body has more paragraphs than a call takes arguments.
    for (const node of parser.parse(text).children) children.push(node);
  };
  for (let i = from; i < to; i++) {
    stats.lines++;
    const line = lines[i] as string;
    const tag = tags[i];
    const paired = close[i] as number;
    // A pair counts only when it closes inside this block: otherwise the open line is text.
    const closed = paired >= 0 && paired < to;
    if (tag === 'hint' && closed) {
      const style = HINT_OPEN.exec(line)?.[1];
      if (style && isHintStyle(style)) {
        flush();
        const inner = parseBlocks(parse, i + 1, paired, depth + 1);
        children.push({ type: 'hint', style, children: inner as HintNode['children'] });
        i = paired;
        continue;
      }
    } else if (tag === 'tabs' && closed) {
      flush();
      children.push({ type: 'tabs', children: parseTabs(parse, i + 1, paired, depth + 1) });
      i = paired;
      continue;
    } else if (tag === 'embed') {
      flush();
      children.push({ type: 'embed', url: decodeTitle(EMBED.exec(line)?.[1] ?? '') });
      continue;
    } else if (tag === 'endembed') {
      continue;
    } else if (tag === 'include') {
      const include = INCLUDE.exec(line);
      flush();
      children.push({ type: 'include', url: include?.[1] ?? include?.[2] ?? '' });
      continue;
    }
    if ((nesting[i] as number) + depth > CONTENT_LIMITS.nestingDepth) throw tooDeep(`line ${i + 1} of the Markdown`);
    pending.push(line);
  }
  flush();
  return children;
}

/**
 * Splits Markdown at GitBook's block tags (outside fenced code): hints and tabs hold Markdown of
 * their own, parsed the same way; an embed is one line (an `{% endembed %}` after a caption is
 * dropped, the caption stays text), and so is an include. Hints do not nest; an unclosed tag stays text.
 * Bounded by {@link CONTENT_LIMITS} (413 over the size, 400 over a structure limit); the tags are
 * paired in one pass beforehand (block-tags.ts), so each line is read once per block around it.
 */
export function parseMarkdown(markdown: string, stats?: ParseStats): Root {
  checkMarkdownSize(markdown);
  const parse: Parse = { scan: scanLines(markdown), stats: stats ?? { lines: 0, remarkCalls: 0, remarkChars: 0 } };
  return { type: 'root', children: parseBlocks(parse, 0, parse.scan.lines.length, 0) };
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

/** The document of a Markdown body; 413 or 400 past {@link CONTENT_LIMITS}. */
export function markdownToDocument(markdown: string, options: RefOptions = {}, stats?: ParseStats): JsonDocument {
  const document = mdastToDocument(parseMarkdown(markdown, stats), options);
  checkBlockCount(document.nodes);
  return document;
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
