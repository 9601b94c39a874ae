/**
 * mdast (the Markdown syntax tree of remark, with GFM) → the structured document. The HTML and
 * Markdown importers both end here, so every source yields the same document shapes.
 *
 * Containers only hold what the official schema lets them hold (a quote cannot hold code, a hint
 * cannot hold a quote, …): a child a container may not hold is lifted out to the container's
 * parent at the same place, so nothing is lost and the document stays valid.
 */
import type {
  Definition,
  List as MdastList,
  Paragraph as MdastParagraph,
  Table as MdastTable,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
} from 'mdast';
import { isScriptUrl } from '../lib/safe-url.js';
import {
  type Block,
  type BlockType,
  blockText,
  type ColumnAlign,
  type Fragment,
  type Image,
  type Inline,
  type InlineImage,
  inlineText,
  type JsonDocument,
  type ListItem,
  leaf,
  type MarkType,
  paragraph,
  type Table,
  type TableDefinition,
  type TableRecord,
  type TextNode,
} from './document.js';
import type { HintNode, TabsNode } from './mdast-hint.js';
import { type RefOptions, urlToRef } from './refs.js';

const MARK_ORDER: MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];
const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'break', 'link', 'image', 'html']);

/** Which blocks each container may hold (from the official schema). */
const ESSENTIALS: BlockType[] = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered'];
const ALLOWED: Record<'blockquote' | 'hint' | 'list-item' | 'tabs-item', Set<BlockType>> = {
  blockquote: new Set([...ESSENTIALS, 'list-tasks', 'divider', 'blockquote']),
  hint: new Set([...ESSENTIALS, 'list-tasks', 'divider', 'table']),
  'list-item': new Set([...ESSENTIALS, 'list-tasks', 'divider', 'code', 'blockquote', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'list-tasks', 'divider', 'code', 'blockquote', 'hint', 'images', 'embed']),
};

class Converter {
  private readonly definitions = new Map<string, Definition>();

  constructor(
    root: Root,
    private readonly options: RefOptions,
  ) {
    const collect = (node: Nodes) => {
      if (node.type === 'definition') this.definitions.set(node.identifier.toLowerCase(), node);
      if ('children' in node) for (const child of node.children) collect(child as Nodes);
    };
    collect(root);
  }

  blocks(nodes: ReadonlyArray<RootContent | HintNode | TabsNode>, atRoot: boolean): Block[] {
    return nodes.flatMap((node) => this.block(node, atRoot));
  }

  /** Children of a container: allowed runs stay inside copies of it, the rest is lifted out. */
  private contain(kind: keyof typeof ALLOWED, children: Block[], make: (nodes: Block[]) => Block): Block[] {
    const out: Block[] = [];
    let run: Block[] = [];
    const flush = () => {
      if (run.length > 0) out.push(make(run));
      run = [];
    };
    for (const child of children) {
      if (ALLOWED[kind].has(child.type)) run.push(child);
      else {
        flush();
        out.push(child);
      }
    }
    flush();
    return out.length > 0 ? out : [make([paragraph([])])];
  }

  private block(node: RootContent | HintNode | TabsNode, atRoot: boolean): Block[] {
    switch (node.type) {
      case 'tabs':
        return [
          {
            object: 'block',
            type: 'tabs',
            data: {},
            nodes: node.children.map((tab) => ({
              object: 'block',
              type: 'tabs-item',
              data: { title: tab.title },
              // A tab cannot lift blocks out of its tabs: what it may not hold becomes a paragraph.
              nodes: this.fitted('tabs-item', this.blocks(tab.children, true)),
            })),
          },
        ];
      case 'embed':
        // A script URL is no embed: its address stays as text.
        if (isScriptUrl(node.url)) return [paragraph([{ object: 'text', leaves: [leaf(node.url)] }])];
        return [{ object: 'block', type: 'embed', isVoid: true, data: { url: node.url } }];
      case 'include': {
        // An include of nothing this space holds stays as written.
        const ref = urlToRef(node.url, this.options);
        if (ref.kind === 'reusable-content')
          return [{ object: 'block', type: 'reusable-content', isVoid: true, data: { ref } }];
        return [paragraph([{ object: 'text', leaves: [leaf(`{% include "${node.url}" %}`)] }])];
      }
      case 'paragraph':
        return [this.paragraph(node, atRoot)];
      case 'heading': {
        const type = node.depth === 1 ? 'heading-1' : node.depth === 2 ? 'heading-2' : 'heading-3';
        return [{ object: 'block', type, data: {}, nodes: this.inlines(node.children) }];
      }
      case 'thematicBreak':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
      case 'blockquote':
        return this.contain('blockquote', this.blocks(node.children, false), (nodes) => ({
          object: 'block',
          type: 'blockquote',
          nodes,
        }));
      case 'hint':
        return this.contain('hint', this.blocks(node.children, false), (nodes) => ({
          object: 'block',
          type: 'hint',
          data: { style: node.style },
          nodes,
        }));
      case 'list':
        return [this.list(node)];
      case 'code': {
        const lines = node.value.split('\n');
        return [
          {
            object: 'block',
            type: 'code',
            data: node.lang ? { syntax: node.lang } : {},
            nodes: lines.map((line) => ({
              object: 'block',
              type: 'code-line',
              data: {},
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
            })),
          },
        ];
      }
      case 'table':
        return [this.table(node)];
      case 'html':
        // Raw HTML in Markdown is kept as text rather than interpreted.
        return [paragraph(this.inlines([{ type: 'text', value: node.value }]))];
      default:
        // Definitions are folded into their references; footnotes and other extensions are dropped.
        return [];
    }
  }

  private paragraph(node: MdastParagraph, atRoot: boolean): Block {
    const inlines = this.inlines(node.children);
    const images = inlines.filter((n): n is InlineImage => n.object === 'inline' && n.type === 'inline-image');
    const onlyImages =
      images.length > 0 &&
      inlines.every((n) => (n.object === 'text' ? inlineText([n]).trim() === '' : n.type === 'inline-image'));
    // A paragraph of images alone is an image block, where the schema allows one (at the top level).
    if (atRoot && onlyImages) {
      return {
        object: 'block',
        type: 'images',
        isVoid: false,
        data: {},
        nodes: images.map(
          (img): Image => ({
            object: 'block',
            type: 'image',
            isVoid: true,
            data: { ref: img.data.ref, ...(img.data.alt ? { alt: img.data.alt } : {}) },
            fragments: img.data.caption
              ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(this.textInlines(img.data.caption))] }]
              : [],
          }),
        ),
      };
    }
    return paragraph(inlines);
  }

  private list(node: MdastList): Block {
    const tasks = node.children.some((item) => typeof item.checked === 'boolean');
    const items = node.children.map(
      (item): ListItem => ({
        object: 'block',
        type: 'list-item',
        ...(tasks ? { data: { checked: item.checked === true } } : {}),
        nodes: this.listItemChildren(this.blocks(item.children, false)),
      }),
    );
    if (tasks) return { object: 'block', type: 'list-tasks', data: {}, nodes: items };
    if (node.ordered) {
      const start = node.start ?? 1;
      return { object: 'block', type: 'list-ordered', data: start !== 1 ? { start } : {}, nodes: items };
    }
    return { object: 'block', type: 'list-unordered', data: {}, nodes: items };
  }

  /** A list item cannot lift children out of its list, so what it may not hold becomes a paragraph. */
  private listItemChildren(children: Block[]): Block[] {
    return this.fitted('list-item', children);
  }

  private fitted(kind: keyof typeof ALLOWED, children: Block[]): Block[] {
    const fitted = children.map((child) =>
      ALLOWED[kind].has(child.type) ? child : paragraph(this.textInlines(blockText(child))),
    );
    return fitted.length > 0 ? fitted : [paragraph([])];
  }

  private table(node: MdastTable): Table {
    let [header, ...rows] = node.children;
    // HTML tables without header cells arrive with an empty header row: the first row is the header.
    if (header && rows.length > 0 && header.children.every((cell) => cell.children.length === 0)) {
      [header, ...rows] = rows;
    }
    const columns = (header?.children ?? []).map((_, i) => `col${i}`);
    const definition: Record<string, TableDefinition> = {};
    columns.forEach((id, i) => {
      const align = node.align?.[i];
      const textAlignment: ColumnAlign = align === 'center' || align === 'right' ? align : 'left';
      const title = inlineText(this.cellInlines(header?.children[i]?.children ?? []));
      definition[id] = { id, title, type: 'text', textAlignment };
    });
    const records: Record<string, TableRecord> = {};
    const fragments: Fragment[] = [];
    rows.forEach((row, r) => {
      const recordId = `row${r}`;
      const values: Record<string, string> = {};
      columns.forEach((column, c) => {
        const fragment = `${recordId}-${column}`;
        values[column] = fragment;
        fragments.push({
          object: 'fragment',
          fragment,
          nodes: [paragraph(this.inlines(row.children[c]?.children ?? []))],
        });
      });
      records[recordId] = { orderIndex: String(r).padStart(6, '0'), values };
    });
    return {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
      fragments,
    };
  }

  /** A cell's content as inline nodes; blocks in it (HTML cells hold paragraphs) are joined by line breaks. */
  private cellInlines(children: ReadonlyArray<Nodes>): Inline[] {
    const phrasing: PhrasingContent[] = [];
    children.forEach((child, i) => {
      if (i > 0 && !PHRASING.has(child.type)) phrasing.push({ type: 'break' });
      if (PHRASING.has(child.type)) phrasing.push(child as PhrasingContent);
      else if ('children' in child) phrasing.push(...(child.children as PhrasingContent[]));
    });
    return this.inlines(phrasing);
  }

  private textInlines(text: string): Inline[] {
    return [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }];
  }

  inlines(nodes: ReadonlyArray<PhrasingContent>): Inline[] {
    const out: Inline[] = [];
    for (const node of nodes) this.phrasing(node, [], out);
    return out;
  }

  private phrasing(node: PhrasingContent, marks: MarkType[], out: Inline[]): void {
    const nested = (children: ReadonlyArray<PhrasingContent>, mark: MarkType) => {
      for (const child of children) this.phrasing(child, [...marks, mark], out);
    };
    switch (node.type) {
      case 'text':
        pushLeaf(out, node.value, marks);
        break;
      case 'emphasis':
        nested(node.children, 'italic');
        break;
      case 'strong':
        nested(node.children, 'bold');
        break;
      case 'delete':
        nested(node.children, 'strikethrough');
        break;
      case 'inlineCode':
        pushLeaf(out, node.value, [...marks, 'code']);
        break;
      case 'break':
        pushLeaf(out, '\n', marks);
        break;
      case 'html':
        pushLeaf(out, node.value, marks);
        break;
      case 'link':
        this.link(node.url, node.children, marks, out);
        break;
      case 'linkReference': {
        const definition = this.definitions.get(node.identifier.toLowerCase());
        if (definition) this.link(definition.url, node.children, marks, out);
        else for (const child of node.children) this.phrasing(child, marks, out);
        break;
      }
      case 'image':
        // An image without a source (e.g. one left out of an import) is dropped; one with a script URL
        // leaves its alt text.
        if (node.url && isScriptUrl(node.url)) pushLeaf(out, node.alt ?? '', marks);
        else if (node.url) out.push(this.image(node.url, node.alt, node.title));
        break;
      case 'imageReference': {
        const found = this.definitions.get(node.identifier.toLowerCase());
        const definition = found && !isScriptUrl(found.url) ? found : undefined;
        if (definition) out.push(this.image(definition.url, node.alt, definition.title));
        else pushLeaf(out, node.alt ?? '', marks);
        break;
      }
      case 'footnoteReference':
        pushLeaf(out, `[^${node.identifier}]`, marks);
        break;
      default:
        break;
    }
  }

  private link(url: string, children: ReadonlyArray<PhrasingContent>, marks: MarkType[], out: Inline[]): void {
    // Script URLs are not links: their text is kept, the link is not.
    if (isScriptUrl(url)) {
      for (const child of children) this.phrasing(child, marks, out);
      return;
    }
    const inner: Inline[] = [];
    for (const child of children) this.phrasing(child, marks, inner);
    const nodes = inner.filter((n): n is TextNode | InlineImage => n.object === 'text' || n.type === 'inline-image');
    out.push({
      object: 'inline',
      type: 'link',
      isVoid: false,
      data: { ref: urlToRef(url, this.options) },
      nodes: nodes.length > 0 ? nodes : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }],
    });
  }

  private image(url: string, alt: string | null | undefined, title: string | null | undefined): InlineImage {
    let ref = urlToRef(url, this.options);
    // Images point at files or URLs only.
    if (ref.kind !== 'file' && ref.kind !== 'url') ref = { kind: 'url', url };
    return {
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref, ...(alt ? { alt } : {}), ...(title ? { caption: title } : {}) },
    };
  }
}

/** Appends text with `marks`, merging with the previous leaf when the marks are the same. */
function pushLeaf(out: Inline[], text: string, marks: MarkType[]): void {
  const sorted = MARK_ORDER.filter((m) => marks.includes(m));
  const last = out[out.length - 1];
  const node: TextNode = last?.object === 'text' ? last : { object: 'text', leaves: [] };
  if (node !== last) out.push(node);
  const previous = node.leaves[node.leaves.length - 1];
  if (previous && previous.marks.map((m) => m.type).join() === sorted.join()) previous.text += text;
  else node.leaves.push({ object: 'leaf', text, marks: sorted.map((type) => ({ object: 'mark', type })) });
}

/** Converts a Markdown syntax tree (hints already folded in, see markdown.ts) to a document. */
export function mdastToDocument(root: Root, options: RefOptions = {}): JsonDocument {
  const converter = new Converter(root, options);
  return { object: 'document', data: {}, nodes: converter.blocks(root.children, true) };
}
