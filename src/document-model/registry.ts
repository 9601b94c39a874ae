/**
 * Which node of the editor stands for which object of the Document format: one table, read by the
 * TipTap extensions (extensions.ts) and by both directions of the mapping (to-editor.ts,
 * to-document.ts). Adding a node type is adding a row here (see docs/guide/editor-model.md).
 *
 * Kinds: a `textblock` holds inlines (the object's `nodes`), a `container` holds blocks (its
 * `nodes`, restricted by `content`), a `void` block or inline holds nothing the editor edits in
 * place: its `data` is edited as a whole (a form, later) and every other property rides along.
 */

export type BlockKind = 'textblock' | 'container' | 'void';

export interface BlockSpec {
  /** The official `type` (headings: one spec for `heading-1`…`heading-3`, see {@link headingLevel}). */
  type: string;
  /** The editor's node name. */
  name: string;
  kind: BlockKind;
  /** ProseMirror content expression (containers). */
  content?: string;
  /** In the `block` group: allowed wherever blocks are (false: only inside its parent, e.g. a list item). */
  block: boolean;
  /** `data` of a node made in the editor. */
  data?: Record<string, unknown>;
  /** Other properties of a node made in the editor (`isVoid` where the format requires it). */
  extra?: Record<string, unknown>;
}

const VOID = { isVoid: true };

export const BLOCKS: BlockSpec[] = [
  { type: 'paragraph', name: 'paragraph', kind: 'textblock', block: true },
  { type: 'heading', name: 'heading', kind: 'textblock', block: true, data: {} },
  { type: 'code-line', name: 'codeLine', kind: 'textblock', block: false, data: {} },
  { type: 'blockquote', name: 'blockquote', kind: 'container', content: 'block*', block: true },
  { type: 'hint', name: 'hint', kind: 'container', content: 'block*', block: true, data: { style: 'info' } },
  { type: 'list-unordered', name: 'bulletList', kind: 'container', content: 'listItem*', block: true },
  { type: 'list-ordered', name: 'orderedList', kind: 'container', content: 'listItem*', block: true, data: {} },
  { type: 'list-tasks', name: 'taskList', kind: 'container', content: 'listItem*', block: true },
  { type: 'list-item', name: 'listItem', kind: 'container', content: 'block*', block: false },
  { type: 'code', name: 'codeBlock', kind: 'container', content: 'codeLine*', block: true, data: {} },
  { type: 'tabs', name: 'tabs', kind: 'container', content: 'tabsItem*', block: true },
  { type: 'tabs-item', name: 'tabsItem', kind: 'container', content: 'block*', block: false, data: { title: '' } },
  { type: 'stepper', name: 'stepper', kind: 'container', content: 'stepperStep*', block: true },
  { type: 'stepper-step', name: 'stepperStep', kind: 'container', content: 'block*', block: false, data: {} },
  {
    type: 'columns',
    name: 'columns',
    kind: 'container',
    content: 'column*',
    block: true,
    data: {},
    extra: { isVoid: false },
  },
  { type: 'column', name: 'column', kind: 'container', content: 'block*', block: false, data: {} },
  { type: 'updates', name: 'updates', kind: 'container', content: 'update*', block: true, data: { format: 'full' } },
  { type: 'update', name: 'update', kind: 'container', content: 'block*', block: false, data: { date: '' } },
  { type: 'if', name: 'conditional', kind: 'container', content: 'block*', block: true, data: { expression: '' } },
  { type: 'prompt', name: 'prompt', kind: 'container', content: 'codeBlock', block: true, data: { description: '' } },
  {
    type: 'images',
    name: 'images',
    kind: 'container',
    content: 'image*',
    block: true,
    data: {},
    extra: { isVoid: false },
  },
  { type: 'image', name: 'image', kind: 'void', block: false, extra: { isVoid: true, fragments: [] } },
  { type: 'divider', name: 'divider', kind: 'void', block: true, data: {}, extra: VOID },
  { type: 'embed', name: 'embed', kind: 'void', block: true, data: { url: '' }, extra: VOID },
  { type: 'math', name: 'math', kind: 'void', block: true, data: { formula: '' }, extra: VOID },
  { type: 'file', name: 'file', kind: 'void', block: true, extra: VOID },
  { type: 'drawing', name: 'drawing', kind: 'void', block: true, data: {}, extra: VOID },
  { type: 'content-ref', name: 'contentRef', kind: 'void', block: true, extra: VOID },
  { type: 'reusable-content', name: 'reusableContent', kind: 'void', block: true, extra: VOID },
  { type: 'integration', name: 'integration', kind: 'void', block: true, extra: VOID },
  { type: 'swagger', name: 'openapi', kind: 'void', block: true, extra: VOID },
  { type: 'openapi-operation', name: 'openapiOperation', kind: 'void', block: true, extra: VOID },
  { type: 'openapi-schemas', name: 'openapiSchemas', kind: 'void', block: true, extra: VOID },
  { type: 'openapi-webhook', name: 'openapiWebhook', kind: 'void', block: true, extra: VOID },
];

/** The expandable block keeps its two fragments (title, body) as two editable children. */
export const EXPANDABLE = { type: 'expandable', name: 'expandable', title: 'expandableTitle', body: 'expandableBody' };

/**
 * The table block is edited cell by cell (table.ts): a table of rows of header cells and cells, a
 * value the editor keeps as data in a `tableValue`.
 */
export const TABLE = {
  type: 'table',
  name: 'table',
  row: 'tableRow',
  header: 'tableHeader',
  cell: 'tableCell',
  value: 'tableValue',
} as const;

/** Void inlines of the format (`isVoid: true`, no children). */
export const VOID_INLINES: Array<{ type: string; name: string }> = [
  { type: 'inline-image', name: 'inlineImage' },
  { type: 'emoji', name: 'emoji' },
  { type: 'icon', name: 'icon' },
  { type: 'expression', name: 'expression' },
  { type: 'inline-math', name: 'inlineMath' },
  { type: 'mention', name: 'mention' },
  { type: 'button', name: 'button' },
];

/** Inlines with children: marks in the editor, spanning the texts they wrap. */
export const WRAPPER_INLINES: Array<{ type: string; name: string }> = [
  { type: 'link', name: 'link' },
  { type: 'annotation', name: 'annotation' },
];

/** Leaf marks of the format, in the editor's rank order (a leaf's marks come out in this order). */
export const MARKS: Array<{ type: string; tag: string }> = [
  { type: 'bold', tag: 'strong' },
  { type: 'italic', tag: 'em' },
  { type: 'strikethrough', tag: 's' },
  { type: 'code', tag: 'code' },
  { type: 'keyboard', tag: 'kbd' },
  { type: 'superscript', tag: 'sup' },
  { type: 'subscript', tag: 'sub' },
  { type: 'color', tag: 'span' },
];

/** Fallbacks: any node the editor does not map natively, kept whole as `json`. */
export const BLOCK_ATOM = 'blockAtom';
export const INLINE_ATOM = 'inlineAtom';
export const MARK_ATOM = 'markAtom';
export const HEADING_TYPES = ['heading-1', 'heading-2', 'heading-3'];

export const blockByType = new Map(BLOCKS.map((spec) => [spec.type, spec]));
export const blockByName = new Map(BLOCKS.map((spec) => [spec.name, spec]));
export const voidInlineByType = new Map(VOID_INLINES.map((spec) => [spec.type, spec.name]));
export const voidInlineByName = new Map(VOID_INLINES.map((spec) => [spec.name, spec.type]));
export const markTypes = new Set(MARKS.map((mark) => mark.type));

/** 1–3 for `heading-1`…`heading-3`, else 0. */
export function headingLevel(type: string): number {
  return HEADING_TYPES.indexOf(type) + 1;
}
