/** Assertions over the shared Document model (src/document-model). */
import { Node } from '@tiptap/pm/model';
import { expect } from 'vitest';
import { documentSchema, documentToEditor, type EditorNode, editorToDocument } from '../../src/document-model/index.js';

/** Maps `document` to the editor, checks it with ProseMirror, and expects it back unchanged both ways. */
export function expectLossless(document: unknown): EditorNode {
  const json = documentToEditor(document);
  const node = Node.fromJSON(documentSchema(), json);
  node.check();
  // ProseMirror holds the JSON as given: nothing the mapping relies on is normalized away.
  expect(node.toJSON()).toEqual(json);
  expect(editorToDocument(json)).toStrictEqual(document);
  expect(editorToDocument(node.toJSON())).toStrictEqual(document);
  // Byte for byte: the same properties in the same order.
  expect(JSON.stringify(editorToDocument(node.toJSON()))).toBe(JSON.stringify(document));
  return json;
}
