/**
 * The structured document of a page, in the shape of the official `JSONDocument`: blocks, inlines
 * and texts made of leaves carrying marks. Only the constructs Bindery reads and writes are typed;
 * these types are what the Markdown and HTML converters produce and consume.
 */

export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string };

export type MarkType = 'bold' | 'italic' | 'code' | 'strikethrough';
export interface Mark {
  object: 'mark';
  type: MarkType;
}
export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}
export interface TextNode {
  object: 'text';
  leaves: Leaf[];
}
export interface InlineImage {
  object: 'inline';
  type: 'inline-image';
  isVoid: true;
  data: { ref: ContentRef; alt?: string; caption?: string };
}
export interface InlineLink {
  object: 'inline';
  type: 'link';
  isVoid: false;
  data: { ref: ContentRef };
  nodes: Array<TextNode | InlineImage>;
}
export type Inline = TextNode | InlineLink | InlineImage;

export interface Paragraph {
  object: 'block';
  type: 'paragraph';
  nodes: Inline[];
}
export type HeadingType = 'heading-1' | 'heading-2' | 'heading-3';
export interface Heading {
  object: 'block';
  type: HeadingType;
  data: Record<string, never> | { id: string };
  nodes: Inline[];
}
export interface ListItem {
  object: 'block';
  type: 'list-item';
  data?: { checked?: boolean };
  nodes: Block[];
}
export interface List {
  object: 'block';
  type: 'list-unordered' | 'list-ordered' | 'list-tasks';
  data: { start?: number };
  nodes: ListItem[];
}
export interface CodeLine {
  object: 'block';
  type: 'code-line';
  data: Record<string, never>;
  nodes: TextNode[];
}
export interface Code {
  object: 'block';
  type: 'code';
  data: { syntax?: string };
  nodes: CodeLine[];
}
export interface Quote {
  object: 'block';
  type: 'blockquote';
  nodes: Block[];
}
export type HintStyle = 'info' | 'warning' | 'danger' | 'success';
export interface Hint {
  object: 'block';
  type: 'hint';
  data: { style: HintStyle };
  nodes: Block[];
}
export interface Divider {
  object: 'block';
  type: 'divider';
  isVoid: true;
  data: Record<string, never>;
}
export interface Fragment {
  object: 'fragment';
  fragment: string;
  type?: string;
  nodes: Paragraph[];
}
export interface Image {
  object: 'block';
  type: 'image';
  isVoid: true;
  data: { ref: ContentRef; alt?: string };
  fragments: Fragment[];
}
export interface Images {
  object: 'block';
  type: 'images';
  isVoid: false;
  data: Record<string, never>;
  nodes: Image[];
}
export type ColumnAlign = 'left' | 'center' | 'right';
export interface TableDefinition {
  id: string;
  title: string;
  type: 'text';
  textAlignment: ColumnAlign;
}
export interface TableRecord {
  orderIndex: string;
  /** Column definition id → id of the fragment holding the cell. */
  values: Record<string, string>;
}
export interface Table {
  object: 'block';
  type: 'table';
  isVoid: true;
  data: {
    view: { type: 'grid'; columns: string[]; hideHeader: boolean };
    records: Record<string, TableRecord>;
    definition: Record<string, TableDefinition>;
    /** Merged cells, resolved against the rows in order and the visible columns (cell-merges.ts). */
    cellMerges?: unknown[];
  };
  fragments: Fragment[];
}

export interface TabsItem {
  object: 'block';
  type: 'tabs-item';
  data: { title: string };
  nodes: Block[];
}
export interface Tabs {
  object: 'block';
  type: 'tabs';
  data: Record<string, never>;
  nodes: TabsItem[];
}
export interface Embed {
  object: 'block';
  type: 'embed';
  isVoid: true;
  data: { url: string };
}

/** A reusable content shown in place (GitBook's `{% include %}`). */
export interface ReusableContentBlock {
  object: 'block';
  type: 'reusable-content';
  isVoid: true;
  data: { ref: { kind: 'reusable-content'; reusableContent: string; space?: string } };
}

export type Block =
  | ReusableContentBlock
  | Paragraph
  | Heading
  | List
  | ListItem
  | Code
  | Quote
  | Hint
  | Divider
  | Images
  | Image
  | Table
  | Tabs
  | TabsItem
  | Embed;
export type BlockType = Block['type'];

export interface JsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Block[];
}

export function emptyDocument(): JsonDocument {
  return { object: 'document', data: {}, nodes: [] };
}

export function leaf(text: string, marks: MarkType[] = []): Leaf {
  return { object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) };
}

export function textNode(leaves: Leaf[]): TextNode {
  return { object: 'text', leaves };
}

export function paragraph(nodes: Inline[]): Paragraph {
  return { object: 'block', type: 'paragraph', nodes: nodes.length > 0 ? nodes : [textNode([leaf('')])] };
}

/** The plain text of inline nodes (links contribute their text, images their alt). */
export function inlineText(nodes: ReadonlyArray<Inline>): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      if (node.type === 'link') return inlineText(node.nodes);
      return node.data.alt ?? '';
    })
    .join('');
}

/** Plain text of any block, for the rare block that has to be flattened. */
export function blockText(block: Block): string {
  if (
    block.type === 'paragraph' ||
    block.type === 'heading-1' ||
    block.type === 'heading-2' ||
    block.type === 'heading-3'
  ) {
    return inlineText(block.nodes);
  }
  if (block.type === 'images') return block.nodes.map((image) => image.data.alt ?? '').join(' ');
  if ('nodes' in block) return (block.nodes as Block[]).map(blockText).join('\n');
  return '';
}

/** The plain text of any node of the official format, known to this module or not (leaves' text, depth first). */
export function nodeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(nodeText).join('');
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.object === 'leaf') return typeof record.text === 'string' ? record.text : '';
    return [record.leaves, record.nodes].map(nodeText).join('');
  }
  return '';
}

/** A heading's anchor, as GitHub and GitBook derive it: lower case, punctuation dropped, spaces → `-`. */
export function anchorOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Blocks whose `nodes` are blocks. */
export const CONTAINERS: ReadonlySet<BlockType> = new Set<BlockType>([
  'list-unordered',
  'list-ordered',
  'list-tasks',
  'list-item',
  'blockquote',
  'hint',
  'tabs',
  'tabs-item',
]);

/** Every heading anchor of a document. */
export function anchorsOf(document: JsonDocument): Set<string> {
  const anchors = new Set<string>();
  const visit = (blocks: ReadonlyArray<Block>) => {
    for (const block of blocks) {
      if (block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3') {
        anchors.add('id' in block.data ? block.data.id : anchorOf(inlineText(block.nodes)));
      } else if (CONTAINERS.has(block.type)) {
        visit((block as List | ListItem | Quote | Hint | Tabs | TabsItem).nodes);
      }
    }
  };
  visit(document.nodes);
  return anchors;
}
