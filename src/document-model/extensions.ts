/**
 * The TipTap extensions of the Document format: one node per block and void inline of the registry,
 * marks for leaf marks and for the inlines that wrap texts (links, annotations), and the atoms that
 * carry what the editor does not map. Every attribute a node carries for the format (`key`, `data`,
 * `extra`, `json`) is written into the HTML as a `data-*` JSON attribute and read back from it, so
 * copying and pasting inside the editor keeps them.
 */
import { type AnyExtension, getSchema, Mark, mergeAttributes, Node } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { jsonAttribute, keepNulls } from './html-attrs.js';
import {
  BLOCK_ATOM,
  BLOCKS,
  type BlockSpec,
  EXPANDABLE,
  INLINE_ATOM,
  MARK_ATOM,
  MARKS,
  VOID_INLINES,
} from './registry.js';
import { tableExtensions } from './table-nodes.js';

type Attrs = Record<string, unknown>;

/**
 * `key`, `data`, `extra` (every other property of the object but its type and children) and
 * `order` (its properties' order, when not the usual one: attrs.ts).
 */
function formatAttributes(data: unknown = null, extra: unknown = null) {
  return {
    key: jsonAttribute('key', null, false),
    data: jsonAttribute('data', data),
    extra: jsonAttribute('extra', extra),
    order: jsonAttribute('order', null, false),
  };
}

/** A short text for a void node's HTML (the app draws voids with node views; this is the fallback). */
function summary(type: string, data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const ref = (d.ref ?? {}) as Record<string, unknown>;
  const detail = [d.url, d.formula, d.code, d.icon, d.expression, d.label, ref.url, ref.page, ref.file, ref.space]
    .filter((v) => typeof v === 'string' && v !== '')
    .join(' ');
  return detail ? `${type}: ${detail}` : type;
}

function blockNode(spec: BlockSpec): AnyExtension {
  // A task list is a `ul`: an `li` in a `div` inside another `li` would close that one as HTML is parsed.
  const element = spec.name === 'taskList' ? 'ul' : 'div';
  const selector = `${element}[data-type="${spec.name}"]`;
  if (spec.kind === 'void') {
    return Node.create({
      name: spec.name,
      group: spec.block ? 'block' : undefined,
      atom: true,
      selectable: true,
      draggable: true,
      addAttributes: () => formatAttributes(spec.data ?? null, spec.extra ?? null),
      parseHTML: () =>
        keepNulls([{ tag: selector, priority: 60 }, ...(spec.name === 'divider' ? [{ tag: 'hr' }] : [])]),
      renderHTML: ({ node, HTMLAttributes }) => [
        'div',
        mergeAttributes(HTMLAttributes, { 'data-type': spec.name, contenteditable: 'false' }),
        summary(spec.type, node.attrs.data),
      ],
    });
  }
  const textblock = spec.kind === 'textblock';
  const tags: Record<string, string> = {
    paragraph: 'p',
    blockquote: 'blockquote',
    bulletList: 'ul',
    orderedList: 'ol',
    listItem: 'li',
    codeBlock: 'pre',
  };
  const tag = tags[spec.name];
  return Node.create({
    name: spec.name,
    group: spec.block ? 'block' : undefined,
    content: textblock ? 'inline*' : spec.content,
    code: spec.name === 'codeLine',
    defining: spec.name === 'codeLine' || !textblock,
    addAttributes: () => ({
      ...(spec.name === 'heading'
        ? {
            level: {
              default: 1,
              parseHTML: (el: HTMLElement) =>
                Number(el.getAttribute('data-level')) || Math.min(3, Number(el.tagName.slice(1)) || 1),
              renderHTML: (attrs: Attrs) => ({ 'data-level': attrs.level }),
            },
          }
        : {}),
      ...formatAttributes(spec.data ?? null, spec.extra ?? null),
      // The inlines as read, kept while the text is unchanged (see to-document.ts).
      ...(textblock ? { inlineSource: { default: null, keepOnSplit: false, rendered: false } } : {}),
    }),
    parseHTML: () =>
      keepNulls([
        ...(spec.name === 'heading' ? ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({ tag: h })) : []),
        ...(tag ? [{ tag, ...(spec.name === 'codeBlock' ? { preserveWhitespace: 'full' as const } : {}) }] : []),
        // Before the plain tags (a task list's `ul` is not a bulleted list).
        { tag: selector, priority: 60 },
      ]),
    renderHTML: ({ node, HTMLAttributes }) => {
      // The page title is the screen's h1: a document's headings start one level below (as in the app's reader).
      if (spec.name === 'heading') return [`h${Number(node.attrs.level) + 1}`, HTMLAttributes, 0];
      if (tag) return [tag, HTMLAttributes, 0];
      return [element, mergeAttributes(HTMLAttributes, { 'data-type': spec.name }), 0];
    },
  });
}

function fragmentNode(name: string, kind: string, content: string): AnyExtension {
  return Node.create({
    name,
    content,
    defining: true,
    // The fragment object but its nodes (`fragment`, `type`, `key`, …), and its properties' order (attrs.ts).
    addAttributes: () => ({
      props: jsonAttribute('props', { object: 'fragment', fragment: kind, type: kind }),
      order: jsonAttribute('order', null, false),
    }),
    parseHTML: () => keepNulls([{ tag: `div[data-type="${name}"]` }]),
    renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-type': name }), 0],
  });
}

function voidInline(name: string, type: string): AnyExtension {
  return Node.create({
    name,
    group: 'inline',
    inline: true,
    atom: true,
    selectable: true,
    addAttributes: () =>
      name === INLINE_ATOM ? { json: jsonAttribute('json') } : formatAttributes({}, { isVoid: true }),
    parseHTML: () => keepNulls([{ tag: `span[data-type="${name}"]` }]),
    renderHTML: ({ node, HTMLAttributes }) => [
      'span',
      mergeAttributes(HTMLAttributes, { 'data-type': name, contenteditable: 'false' }),
      summary(type, name === INLINE_ATOM ? (node.attrs.json as Attrs | null)?.data : node.attrs.data),
    ],
  });
}

const SHORTCUTS: Record<string, string> = {
  bold: 'Mod-b',
  italic: 'Mod-i',
  strikethrough: 'Mod-Shift-s',
  code: 'Mod-e',
};

function leafMark(type: string, tag: string): AnyExtension {
  const shortcut = SHORTCUTS[type];
  return Mark.create({
    name: type,
    addKeyboardShortcuts() {
      return shortcut ? { [shortcut]: () => this.editor.commands.toggleMark(this.name) } : {};
    },
    addAttributes: () => ({ data: jsonAttribute('data') }),
    parseHTML: () =>
      type === 'color'
        ? [{ tag: 'span[data-type="color"]' }]
        : [{ tag }, ...(type === 'bold' ? [{ tag: 'b' }] : type === 'italic' ? [{ tag: 'i' }] : [])],
    renderHTML: ({ HTMLAttributes }) => [
      tag,
      type === 'color' ? mergeAttributes(HTMLAttributes, { 'data-type': 'color' }) : HTMLAttributes,
      0,
    ],
  });
}

/** Only URLs a browser may follow from an editor (the published site does its own checks). */
function safeHref(attrs: Attrs): Record<string, string> {
  const ref = ((attrs.data as Attrs | null)?.ref ?? {}) as Attrs;
  return typeof ref.url === 'string' && /^(https?:|mailto:)/i.test(ref.url) ? { href: ref.url } : {};
}

const linkMark = Mark.create({
  name: 'link',
  inclusive: false,
  excludes: 'annotation link',
  addAttributes: () => formatAttributes({ ref: { kind: 'url', url: '' } }, { isVoid: false }),
  parseHTML: () =>
    keepNulls([
      // Its own (any ref, written in data-data), before a link pasted from elsewhere (a URL).
      { tag: 'a[data-data]', priority: 60 },
      {
        tag: 'a[href]',
        getAttrs: (el: HTMLElement) => ({ data: { ref: { kind: 'url', url: el.getAttribute('href') } } }),
      },
    ]),
  renderHTML: ({ mark, HTMLAttributes }) => ['a', mergeAttributes(HTMLAttributes, safeHref(mark.attrs)), 0],
});

const annotationMark = Mark.create({
  name: 'annotation',
  inclusive: false,
  excludes: 'annotation link',
  addAttributes: () => formatAttributes(null, { isVoid: false, fragments: [] }),
  parseHTML: () => keepNulls([{ tag: 'span[data-type="annotation"]' }]),
  renderHTML: ({ HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes, { 'data-type': 'annotation' }), 0],
});

const markAtom = Mark.create({
  name: MARK_ATOM,
  // A leaf may carry several unknown marks.
  excludes: '',
  addAttributes: () => ({ json: jsonAttribute('json') }),
  parseHTML: () => keepNulls([{ tag: `span[data-type="${MARK_ATOM}"]` }]),
  renderHTML: ({ HTMLAttributes }) => ['span', mergeAttributes(HTMLAttributes, { 'data-type': MARK_ATOM }), 0],
});

const documentNode = Node.create({
  name: 'doc',
  topNode: true,
  content: 'block*',
  addAttributes: () => ({
    data: jsonAttribute('data', {}),
    extra: jsonAttribute('extra'),
    order: jsonAttribute('order', null, false),
  }),
});

const textNode = Node.create({ name: 'text', group: 'inline' });

const blockAtom = Node.create({
  name: BLOCK_ATOM,
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => ({ json: jsonAttribute('json') }),
  parseHTML: () => keepNulls([{ tag: `div[data-type="${BLOCK_ATOM}"]` }]),
  renderHTML: ({ node, HTMLAttributes }) => [
    'div',
    mergeAttributes(HTMLAttributes, { 'data-type': BLOCK_ATOM, contenteditable: 'false' }),
    summary(String((node.attrs.json as Attrs | null)?.type ?? 'block'), (node.attrs.json as Attrs | null)?.data),
  ],
});

/** Every node and mark of the Document format, in rank order (marks: the order a leaf's marks come out). */
export const extensions: AnyExtension[] = [
  documentNode,
  ...BLOCKS.map(blockNode),
  Node.create({
    name: EXPANDABLE.name,
    group: 'block',
    content: `${EXPANDABLE.title} ${EXPANDABLE.body}`,
    defining: true,
    addAttributes: () => formatAttributes({}, { isVoid: true }),
    parseHTML: () => keepNulls([{ tag: 'div[data-type="expandable"]' }]),
    renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-type': 'expandable' }), 0],
  }),
  fragmentNode(EXPANDABLE.title, 'expandable-title', 'paragraph'),
  fragmentNode(EXPANDABLE.body, 'expandable-body', 'block+'),
  ...tableExtensions,
  blockAtom,
  textNode,
  ...VOID_INLINES.map((spec) => voidInline(spec.name, spec.type)),
  voidInline(INLINE_ATOM, 'inline'),
  linkMark,
  annotationMark,
  ...MARKS.map((mark) => leafMark(mark.type, mark.tag)),
  markAtom,
];

let cached: Schema | undefined;

/** The ProseMirror schema of {@link extensions} (built once). */
export function documentSchema(): Schema {
  cached ??= getSchema(extensions);
  return cached;
}

export { getSchema };
