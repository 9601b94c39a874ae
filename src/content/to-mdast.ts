/**
 * The structured document → mdast, for Markdown output. The inverse of from-mdast.ts for every
 * construct it produces; blocks of the official schema that Markdown cannot express (and that a
 * client may have posted as JSON) are written as their plain text.
 */

import type {
  BlockContent,
  ListItem as MdastListItem,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { compareOrderIndex } from '../document-model/order-index.js';
import {
  type Block,
  type ContentRef,
  type Fragment,
  type Image,
  type Inline,
  type Leaf,
  type MarkType,
  nodeText,
  type Table,
} from './document.js';
import type { EmbedNode, HintNode, IncludeNode, TabsNode } from './mdast-hint.js';

/** The stable URL form of a reference, read back by `urlToRef`. */
export function refToUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `/pages/${ref.page}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return `${ref.page ? `/pages/${ref.page}` : ''}#${ref.anchor}`;
    case 'reusable-content':
      return `/reusable-contents/${ref.reusableContent}`;
    default:
      return '';
  }
}

/**
 * How references are written while one document is converted (Git export writes relative paths).
 * Conversion is synchronous, so a module-level setting restored afterwards is safe.
 */
let writeRef: (ref: ContentRef) => string = refToUrl;

const MARK_ORDER: MarkType[] = ['bold', 'italic', 'strikethrough'];

function hasMark(leaf: Leaf, mark: MarkType): boolean {
  return leaf.marks.some((m) => m.type === mark);
}

/** Nests marks so that runs sharing an outer mark share one mdast node (`**a*b***`, not `**a****b**`). */
function buildMarks(leaves: Leaf[], level: number): PhrasingContent[] {
  const mark = MARK_ORDER[level];
  if (!mark) return leaves.flatMap(leafContent);
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const on = hasMark(leaves[i] as Leaf, mark);
    let j = i;
    while (j < leaves.length && hasMark(leaves[j] as Leaf, mark) === on) j++;
    const run = leaves.slice(i, j);
    i = j;
    if (!on) {
      out.push(...buildMarks(run, level + 1));
      continue;
    }
    // Whitespace at the edges of a marked run moves outside the mark (CommonMark cannot open or
    // close emphasis next to it).
    const text = run.map((l) => l.text).join('');
    const lead = /^\s*/.exec(text)?.[0] ?? '';
    const trail = text.length > lead.length ? (/\s*$/.exec(text)?.[0] ?? '') : '';
    if (lead) out.push(...leafContent({ object: 'leaf', text: lead, marks: [] }));
    const trimmed = trimRun(run, lead.length, trail.length);
    if (trimmed.length > 0) {
      const inner = buildMarks(trimmed, level + 1);
      if (mark === 'bold') out.push({ type: 'strong', children: inner });
      else if (mark === 'italic') out.push({ type: 'emphasis', children: inner });
      else out.push({ type: 'delete', children: inner });
    }
    if (trail) out.push(...leafContent({ object: 'leaf', text: trail, marks: [] }));
  }
  return out;
}

/** The leaves without `head` characters at the start and `tail` at the end. */
function trimRun(run: Leaf[], head: number, tail: number): Leaf[] {
  const out = run.map((l) => ({ ...l }));
  for (let left = head; left > 0 && out.length > 0; ) {
    const first = out[0] as Leaf;
    const cut = Math.min(left, first.text.length);
    first.text = first.text.slice(cut);
    left -= cut;
    if (!first.text) out.shift();
  }
  for (let left = tail; left > 0 && out.length > 0; ) {
    const last = out[out.length - 1] as Leaf;
    const cut = Math.min(left, last.text.length);
    last.text = last.text.slice(0, last.text.length - cut);
    left -= cut;
    if (!last.text) out.pop();
  }
  return out;
}

function leafContent(leaf: Leaf): PhrasingContent[] {
  if (hasMark(leaf, 'code')) return [{ type: 'inlineCode', value: leaf.text }];
  const out: PhrasingContent[] = [];
  leaf.text.split('\n').forEach((part, i) => {
    if (i > 0) out.push({ type: 'break' });
    if (part) out.push({ type: 'text', value: part });
  });
  return out;
}

function phrasing(nodes: ReadonlyArray<Inline>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      out.push(
        ...buildMarks(
          node.leaves.filter((l) => l.text !== ''),
          0,
        ),
      );
    } else if (node.type === 'link') {
      out.push({ type: 'link', url: writeRef(node.data.ref), children: phrasing(node.nodes) });
    } else if (node.type === 'inline-image') {
      out.push({
        type: 'image',
        url: writeRef(node.data.ref),
        alt: node.data.alt ?? '',
        title: node.data.caption ?? null,
      });
    }
  }
  return out;
}

function fragmentPhrasing(fragment: Fragment | undefined): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  (fragment?.nodes ?? []).forEach((p, i) => {
    if (i > 0) out.push({ type: 'break' });
    out.push(...(p.type === 'paragraph' ? phrasing(p.nodes) : [{ type: 'text' as const, value: nodeText(p) }]));
  });
  return out;
}

function table(block: Table): RootContent {
  const { columns } = block.data.view;
  const definitions = columns.map((id) => block.data.definition[id]);
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f]));
  const header: TableRow = {
    type: 'tableRow',
    children: definitions.map(
      (d): TableCell => ({ type: 'tableCell', children: d?.title ? [{ type: 'text', value: d.title }] : [] }),
    ),
  };
  const records = Object.values(block.data.records).sort((a, b) => compareOrderIndex(a.orderIndex, b.orderIndex));
  const rows = records.map(
    (record): TableRow => ({
      type: 'tableRow',
      children: columns.map((column): TableCell => {
        const value: unknown = record.values[column];
        const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
        const children = fragment
          ? fragmentPhrasing(fragment)
          : value == null
            ? []
            : [{ type: 'text' as const, value: nodeText(value) || String(value) }];
        return { type: 'tableCell', children };
      }),
    }),
  );
  return {
    type: 'table',
    align: definitions.map((d) => d?.textAlignment ?? null),
    children: [header, ...rows],
  };
}

function image(img: Image): PhrasingContent {
  const caption = img.fragments.find((f) => f.fragment === 'caption');
  return {
    type: 'image',
    url: writeRef(img.data.ref),
    alt: img.data.alt ?? '',
    title: caption ? nodeText(caption.nodes) : null,
  };
}

function blocks(nodes: ReadonlyArray<Block>): RootContent[] {
  return nodes.flatMap(block);
}

function block(node: Block): RootContent[] {
  switch (node.type) {
    case 'paragraph':
      return [{ type: 'paragraph', children: phrasing(node.nodes) }];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [{ type: 'heading', depth: Number(node.type.slice(-1)) as 1 | 2 | 3, children: phrasing(node.nodes) }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(node.nodes) as BlockContent[] }];
    case 'hint': {
      const hint: HintNode = { type: 'hint', style: node.data.style, children: blocks(node.nodes) as BlockContent[] };
      return [hint];
    }
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const tasks = node.type === 'list-tasks';
      const items = node.nodes.map(
        (item): MdastListItem => ({
          type: 'listItem',
          spread: false,
          checked: tasks ? item.data?.checked === true : null,
          children: blocks(item.nodes) as BlockContent[],
        }),
      );
      const ordered = node.type === 'list-ordered';
      return [
        { type: 'list', ordered, start: ordered ? (node.data.start ?? 1) : null, spread: false, children: items },
      ];
    }
    case 'code':
      return [
        {
          type: 'code',
          lang: node.data.syntax ?? null,
          value: node.nodes.map((line) => nodeText(line.nodes)).join('\n'),
        },
      ];
    case 'images':
      return [{ type: 'paragraph', children: node.nodes.map(image) }];
    case 'image':
      return [{ type: 'paragraph', children: [image(node)] }];
    case 'table':
      return [table(node)];
    case 'tabs': {
      const tabs: TabsNode = {
        type: 'tabs',
        children: node.nodes.map((item) => ({
          type: 'tab',
          title: item.data.title,
          children: blocks(item.nodes) as BlockContent[],
        })),
      };
      return [tabs];
    }
    case 'embed': {
      const embed: EmbedNode = { type: 'embed', url: node.data.url };
      return [embed];
    }
    case 'reusable-content': {
      const include: IncludeNode = { type: 'include', url: writeRef(node.data.ref) };
      return [include];
    }
    default: {
      const text = nodeText(node);
      return text ? [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] : [];
    }
  }
}

export interface MdastOptions {
  /** Writes a reference as a URL (default: the stable forms of {@link refToUrl}). */
  refUrl?: (ref: ContentRef) => string;
}

export function documentToMdast(document: { nodes: ReadonlyArray<Block> }, options: MdastOptions = {}): Root {
  writeRef = options.refUrl ?? refToUrl;
  try {
    return { type: 'root', children: blocks(document.nodes) };
  } finally {
    writeRef = refToUrl;
  }
}
