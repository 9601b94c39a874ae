/**
 * The Document model shared by the app's editor and the server's validation: TipTap extensions for
 * every object of the official Document format, and the lossless mapping both ways
 * (docs/guide/editor-model.md). Depends on @tiptap/core and @tiptap/pm only, never on React.
 */
import { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { documentSchema } from './extensions.js';
import { assertRequired } from './required.js';
import { documentToEditor } from './to-editor.js';
import { type Document, DocumentModelError } from './types.js';

export { documentSchema, extensions, getSchema } from './extensions.js';
export { BLOCKS, EXPANDABLE, MARKS, VOID_INLINES } from './registry.js';
export { editorToDocument } from './to-document.js';
export { documentToEditor } from './to-editor.js';
export type { Document, DocumentNode, EditorMark, EditorNode } from './types.js';
export { DocumentModelError } from './types.js';

/**
 * Checks that the editor can hold `document` and that it is a document of the official format: maps
 * it, checks the result against the schema, and checks every object has the properties the format
 * requires (required.ts). Throws DocumentModelError naming the path of the first fault.
 */
export function checkDocumentModel(document: Document | unknown): void {
  const json = documentToEditor(document);
  assertRequired(document as Record<string, unknown>);
  try {
    ProseMirrorNode.fromJSON(documentSchema(), json).check();
  } catch (error) {
    throw new DocumentModelError('nodes', `the editor cannot hold the document: ${(error as Error).message}`);
  }
}
