/**
 * The editor's document model: the one module the server checks writes with (src/document-model:
 * every block, inline and mark of the Document format, nodes the editor cannot edit yet kept whole),
 * plus what writing adds (writing.ts). Every other file of the editor uses only these exports.
 */
import type { Extensions, JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import {
  documentSchema,
  type EditorNode,
  extensions as modelExtensions,
  editorToDocument as toDocument,
  documentToEditor as toEditor,
} from '../../../../src/document-model/index.js';
import type { JSONDocument } from '../document/types';
import { writingExtensions } from './writing';

export const extensions: Extensions = [...modelExtensions, ...writingExtensions];

export const getSchema = documentSchema;

/** The editor's JSON of a page's document (an empty page: one empty paragraph). */
export function documentToEditor(document: JSONDocument | null | undefined): JSONContent {
  return toEditor(document ?? { object: 'document', data: {}, nodes: [] }) as JSONContent;
}

/** The Document of the editor's JSON, as the API stores it. */
export function editorToDocument(json: JSONContent): JSONDocument {
  return toDocument(json as EditorNode) as unknown as JSONDocument;
}

/**
 * Each top-level block's Document, by the editor's node: ProseMirror keeps the nodes an edit did not
 * touch (the same objects from state to state), so a save converts only the blocks that changed, not
 * the whole page (a 5,000-word page took a long task on every autosave).
 */
const blockCache = new WeakMap<ProseMirrorNode, JSONDocument['nodes'][number]>();

/** The Document of the editor's document: what {@link editorToDocument} gives, block by block. */
export function docToDocument(doc: ProseMirrorNode): JSONDocument {
  const nodes: JSONDocument['nodes'] = [];
  doc.forEach((child) => {
    let block = blockCache.get(child);
    if (!block) {
      block = editorToDocument({ type: 'doc', content: [child.toJSON()] }).nodes[0];
      if (!block) throw new Error(`no Document block for the editor's ${child.type.name}`);
      blockCache.set(child, block);
    }
    nodes.push(block);
  });
  return { ...editorToDocument({ type: 'doc', attrs: doc.attrs, content: [] }), nodes };
}
