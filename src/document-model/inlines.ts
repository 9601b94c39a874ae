/**
 * The inline content of a textblock, both ways. Each leaf becomes a ProseMirror text node with its
 * marks; a link or an annotation becomes a mark over the texts it wraps; void inlines become inline
 * nodes; anything else an inline atom carrying its JSON.
 *
 * ProseMirror spells inline content one way (marks sorted by rank and unique, neighbours with the
 * same marks joined, no empty text, no keys on texts). {@link canonicalInlines} is that spelling
 * written back; a textblock whose inlines were spelt otherwise keeps them as read (`inlineSource`)
 * and writes them back while its content is unchanged: an edit gives the canonical spelling.
 */
import type { Schema } from '@tiptap/pm/model';
import { elementFromAttrs, formatAttrs, isObject, type Value } from './attrs.js';
import { INLINE_ATOM, MARK_ATOM, markTypes, voidInlineByName, voidInlineByType } from './registry.js';
import { type DocumentNode, type EditorMark, type EditorNode, sameJson } from './types.js';

const WRAPPERS = new Set(['link', 'annotation']);

const ranks = new WeakMap<Schema, Map<string, number>>();

function ranksOf(schema: Schema): Map<string, number> {
  let rank = ranks.get(schema);
  if (!rank) {
    rank = new Map(Object.keys(schema.marks).map((name, i) => [name, i]));
    ranks.set(schema, rank);
  }
  return rank;
}

/** Marks in the editor's rank, each type once (unknown marks once per distinct JSON), as ProseMirror holds them. */
function markSet(schema: Schema, marks: EditorMark[]): EditorMark[] {
  const out: EditorMark[] = [];
  for (const mark of marks) {
    const same = out.findIndex(
      (m) => m.type === mark.type && (mark.type !== MARK_ATOM || sameJson(m.attrs, mark.attrs)),
    );
    if (same >= 0) out[same] = mark;
    else out.push(mark);
  }
  if (out.length < 2) return out;
  const rank = ranksOf(schema);
  return out.sort((a, b) => (rank.get(a.type) ?? 0) - (rank.get(b.type) ?? 0));
}

function leafMark(mark: Value): EditorMark {
  if (!markTypes.has(String(mark.type))) return { type: MARK_ATOM, attrs: { json: mark } };
  return { type: String(mark.type), attrs: { data: isObject(mark.data) ? mark.data : null } };
}

/** A link's or annotation's children under its mark, or null when the editor cannot hold it as a mark. */
function wrapperToEditor(schema: Schema, node: Value, outer: EditorMark[]): EditorNode[] | null {
  if (outer.some((mark) => WRAPPERS.has(mark.type))) return null;
  if (!Array.isArray(node.nodes) || node.nodes.length === 0) return null;
  // As the format has it: a link wraps texts and inline images, an annotation texts.
  const allowed = (child: unknown) =>
    isObject(child) && (child.object === 'text' || (node.type === 'link' && child.type === 'inline-image'));
  if (!node.nodes.every(allowed)) return null;
  const mark: EditorMark = { type: String(node.type), attrs: formatAttrs(node, ['nodes']) };
  const inner = inlinesToEditor(schema, node.nodes, [...outer, mark]);
  return inner && inner.length > 0 ? inner : null;
}

/** Inline nodes under the marks `outer`, or null when they cannot be inline content (a block among them). */
export function inlinesToEditor(schema: Schema, nodes: unknown[], outer: EditorMark[]): EditorNode[] | null {
  const out: EditorNode[] = [];
  const push = (node: EditorNode) => {
    const last = out[out.length - 1];
    if (node.text !== undefined && last?.text !== undefined && sameJson(last.marks ?? [], node.marks ?? [])) {
      last.text += node.text;
    } else out.push(node);
  };
  const marked = (node: EditorNode, marks: EditorMark[]) => {
    const set = markSet(schema, marks);
    if (set.length > 0) node.marks = set;
    return node;
  };
  for (const child of nodes) {
    if (!isObject(child)) return null;
    if (child.object === 'text') {
      for (const leaf of child.leaves as Value[]) {
        if (leaf.text === '') continue;
        const marks = [...((leaf.marks as Value[] | undefined) ?? []).map(leafMark), ...outer];
        push(marked({ type: 'text', text: String(leaf.text) }, marks));
      }
      continue;
    }
    if (child.object !== 'inline') return null;
    const type = String(child.type);
    const inner = WRAPPERS.has(type) ? wrapperToEditor(schema, child, outer) : null;
    if (inner) {
      for (const node of inner) push(node);
      continue;
    }
    const name = WRAPPERS.has(type) ? undefined : voidInlineByType.get(type);
    push(
      marked(
        name ? { type: name, attrs: formatAttrs(child, []) } : { type: INLINE_ATOM, attrs: { json: child } },
        outer,
      ),
    );
  }
  return out;
}

function markToDocument(mark: EditorMark): Value {
  if (mark.type === MARK_ATOM) return mark.attrs?.json as Value;
  const data = mark.attrs?.data;
  return { object: 'mark', type: mark.type, ...(isObject(data) ? { data } : {}) };
}

/** Texts and void inlines, neighbouring texts as the leaves of one text object. */
function plainToDocument(run: EditorNode[]): DocumentNode[] {
  const out: Value[] = [];
  let text: Value[] | null = null;
  for (const node of run) {
    if (node.type === 'text') {
      const marks = (node.marks ?? []).filter((mark) => !WRAPPERS.has(mark.type)).map(markToDocument);
      const leaf = { object: 'leaf', text: node.text ?? '', marks };
      if (text) text.push(leaf);
      else {
        text = [leaf];
        out.push({ object: 'text', leaves: text });
      }
      continue;
    }
    text = null;
    if (node.type === INLINE_ATOM) out.push(node.attrs?.json as Value);
    else out.push(elementFromAttrs('inline', voidInlineByName.get(node.type) ?? node.type, node.attrs));
  }
  return out as unknown as DocumentNode[];
}

const wrapperOf = (node: EditorNode): EditorMark | null => node.marks?.find((mark) => WRAPPERS.has(mark.type)) ?? null;

/** The format's inlines of editor inline content, in the canonical spelling (see the header). */
export function inlinesToDocument(content: EditorNode[]): DocumentNode[] {
  const out: DocumentNode[] = [];
  let i = 0;
  while (i < content.length) {
    const wrapper = wrapperOf(content[i] as EditorNode);
    let j = i + 1;
    while (j < content.length && sameJson(wrapperOf(content[j] as EditorNode), wrapper)) j++;
    const run = content.slice(i, j);
    if (wrapper) {
      const nodes = plainToDocument(run);
      out.push(elementFromAttrs('inline', wrapper.type, wrapper.attrs, { nodes }) as unknown as DocumentNode);
    } else out.push(...plainToDocument(run));
    i = j;
  }
  return out;
}

/** A textblock's inlines: an empty one holds one empty leaf, as the format writes an empty paragraph. */
export function canonicalInlines(content: EditorNode[]): DocumentNode[] {
  const out = inlinesToDocument(content);
  return out.length > 0 ? out : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
}

/** The inlines to write for a textblock: as read (`source`) while its content is what was read, else canonical. */
export function textblockInlines(schema: Schema, content: EditorNode[], source: unknown): DocumentNode[] {
  const current = canonicalInlines(content);
  if (!Array.isArray(source)) return current;
  const read = inlinesToEditor(schema, source, []);
  return read && sameJson(canonicalInlines(read), current) ? (source as DocumentNode[]) : current;
}
