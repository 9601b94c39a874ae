/**
 * The editor's document model: the one module the server checks writes with (src/document-model:
 * every block, inline and mark of the Document format, nodes the editor cannot edit yet kept whole),
 * plus what writing adds (writing.ts). Every other file of the editor uses only these exports.
 */
import type { Extensions, JSONContent } from '@tiptap/core';
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
