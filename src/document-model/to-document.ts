/** Editor JSON → Document: the inverse of to-editor.ts (every attribute back to its property). */
import { elementFromAttrs, inKeyOrder, isObject, type Value } from './attrs.js';
import { documentSchema } from './extensions.js';
import { textblockInlines } from './inlines.js';
import { BLOCK_ATOM, blockByName, EXPANDABLE, TABLE } from './registry.js';
import { tableToDocument } from './table.js';
import { type Document, DocumentModelError, type DocumentNode, type EditorNode } from './types.js';

/** 1–3, whatever a pasted or scripted attribute says. */
const headingLevelOf = (level: unknown) => Math.min(3, Math.max(1, Math.trunc(Number(level)) || 1));

function blockToDocument(node: EditorNode, path: string): Value {
  const children = (nodes: EditorNode[] | undefined, at: string) =>
    (nodes ?? []).map((child, i) => blockToDocument(child, `${at}/${i}`));
  if (node.type === BLOCK_ATOM) return node.attrs?.json as Value;
  if (node.type === EXPANDABLE.name) {
    const fragments = (node.content ?? []).map((fragment, i) =>
      inKeyOrder(
        {
          ...((fragment.attrs?.props as Value | null) ?? {}),
          nodes: children(fragment.content, `${path}/fragments/${i}/nodes`),
        },
        fragment.attrs?.order,
      ),
    );
    return elementFromAttrs('block', EXPANDABLE.type, node.attrs, { fragments });
  }
  if (node.type === TABLE.name) return tableToDocument(node, path, children);
  const spec = blockByName.get(node.type);
  if (!spec) throw new DocumentModelError(path, `the editor node "${node.type}" is not a block of the format`);
  const type = spec.name === 'heading' ? `heading-${headingLevelOf(node.attrs?.level)}` : spec.type;
  if (spec.kind === 'void') return elementFromAttrs('block', type, node.attrs);
  if (spec.kind === 'container') {
    return elementFromAttrs('block', type, node.attrs, { nodes: children(node.content, `${path}/nodes`) });
  }
  const nodes = textblockInlines(documentSchema(), node.content ?? [], node.attrs?.inlineSource);
  return elementFromAttrs('block', type, node.attrs, { nodes });
}

/** The Document of the editor's JSON (`editor.getJSON()`). */
export function editorToDocument(json: EditorNode): Document {
  if (json.type !== 'doc') throw new DocumentModelError('', `the editor's top node is "${json.type}", not "doc"`);
  const nodes = (json.content ?? []).map((node, i) => blockToDocument(node, `nodes/${i}`));
  const { data, extra, order } = (json.attrs ?? {}) as { data?: unknown; extra?: unknown; order?: unknown };
  const document = {
    object: 'document',
    ...(isObject(extra) ? extra : {}),
    ...(isObject(data) ? { data } : {}),
    nodes: nodes as unknown as DocumentNode[],
  };
  return inKeyOrder(document, order) as Document;
}
