/**
 * Document → editor JSON. Each object of the format becomes the editor node of its type
 * (registry.ts), its `key`, `data` and every other property in attributes; a node the editor does
 * not map, or one its parent may not hold there (an image outside an images block, a list holding
 * a paragraph), becomes an atom carrying its JSON whole. Inlines: see inlines.ts.
 */
import type { NodeType, Schema } from '@tiptap/pm/model';
import { formatAttrs, isObject, keyOrder, type Value } from './attrs.js';
import { documentSchema } from './extensions.js';
import { canonicalInlines, inlinesToEditor } from './inlines.js';
import { BLOCK_ATOM, blockByType, EXPANDABLE, headingLevel, TABLE } from './registry.js';
import { tableToEditor } from './table.js';
import { type Document, type EditorNode, sameJsonText } from './types.js';
import { assertWellFormed } from './well-formed.js';

const blockAtom = (node: unknown): EditorNode => ({ type: BLOCK_ATOM, attrs: { json: node } });

/** ProseMirror's JSON leaves out empty content. */
function withContent(node: EditorNode, content: EditorNode[]): EditorNode {
  if (content.length > 0) node.content = content;
  return node;
}

/** Children for `type`, or null when they cannot be its content (the caller then makes an atom). */
function blockChildren(schema: Schema, type: NodeType, children: unknown): EditorNode[] | null {
  if (!Array.isArray(children)) return null;
  let match = type.contentMatch;
  const out: EditorNode[] = [];
  for (const child of children) {
    if (!isObject(child) || child.object !== 'block') return null;
    let node = blockToEditor(schema, child);
    let next = match.matchType(schema.nodes[node.type] as NodeType);
    if (!next && node.type !== BLOCK_ATOM) {
      node = blockAtom(child);
      next = match.matchType(schema.nodes[BLOCK_ATOM] as NodeType);
    }
    if (!next) return null;
    match = next;
    out.push(node);
  }
  return match.validEnd ? out : null;
}

/** An expandable of exactly a title fragment then a body fragment; other shapes stay atoms. */
function expandableToEditor(schema: Schema, node: Value): EditorNode | null {
  const fragments = node.fragments;
  if (!Array.isArray(fragments) || fragments.length !== 2) return null;
  const parts = [
    [fragments[0], 'expandable-title', EXPANDABLE.title],
    [fragments[1], 'expandable-body', EXPANDABLE.body],
  ] as const;
  const content: EditorNode[] = [];
  for (const [fragment, kind, name] of parts) {
    if (!isObject(fragment) || fragment.fragment !== kind || fragment.type !== kind) return null;
    const { nodes, ...props } = fragment;
    const children = blockChildren(schema, schema.nodes[name] as NodeType, nodes);
    if (!children) return null;
    const order = keyOrder(fragment, [...Object.keys(props), 'nodes']);
    content.push(withContent({ type: name, attrs: { props, order } }, children));
  }
  return { type: EXPANDABLE.name, attrs: formatAttrs(node, ['fragments']), content };
}

export function blockToEditor(schema: Schema, node: Value): EditorNode {
  const type = String(node.type);
  if (type === EXPANDABLE.type) return expandableToEditor(schema, node) ?? blockAtom(node);
  if (type === TABLE.type) {
    const cells = (cell: NodeType, nodes: unknown) => blockChildren(schema, cell, nodes);
    return tableToEditor(schema, node, cells) ?? blockAtom(node);
  }
  const level = headingLevel(type);
  const spec = level > 0 ? blockByType.get('heading') : blockByType.get(type);
  if (!spec || type === 'heading') return blockAtom(node);
  const levelAttr = level > 0 ? { level } : {};
  if (spec.kind === 'void') return { type: spec.name, attrs: { ...levelAttr, ...formatAttrs(node, []) } };
  const attrs = { ...levelAttr, ...formatAttrs(node, ['nodes']) };
  if (spec.kind === 'container') {
    const content = blockChildren(schema, schema.nodes[spec.name] as NodeType, node.nodes);
    return content ? withContent({ type: spec.name, attrs }, content) : blockAtom(node);
  }
  if (!Array.isArray(node.nodes)) return blockAtom(node);
  const content = inlinesToEditor(schema, node.nodes, []);
  if (!content) return blockAtom(node);
  // Kept only when ProseMirror would spell the inlines otherwise (inlines.ts), down to their keys' order.
  const inlineSource = sameJsonText(canonicalInlines(content), node.nodes) ? null : node.nodes;
  return withContent({ type: spec.name, attrs: { ...attrs, inlineSource } }, content);
}

/** The editor's JSON of a document; DocumentModelError, naming the path, for what is not a document. */
export function documentToEditor(document: Document | unknown): EditorNode {
  assertWellFormed(document);
  const schema = documentSchema();
  const doc = document as Value;
  const content = (doc.nodes as Value[]).map((node) => {
    const mapped = blockToEditor(schema, node);
    return schema.nodes[mapped.type]?.isInGroup('block') ? mapped : blockAtom(node);
  });
  const { key, data, extra } = formatAttrs(doc, ['nodes']);
  const rest = key === null ? extra : { ...(extra as Value | null), key };
  // As editorToDocument writes it: object, the rest, data, nodes.
  const written = ['object', ...Object.keys(rest ?? {}), ...(data === null ? [] : ['data']), 'nodes'];
  return withContent({ type: 'doc', attrs: { data, extra: rest, order: keyOrder(doc, written) } }, content);
}
