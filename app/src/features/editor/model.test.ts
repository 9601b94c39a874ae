import { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { EditorState } from '@tiptap/pm/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentArbitrary } from '../../../../test/helpers/document-arbitraries.js';
import type { JSONDocument } from '../document/types';
import { docToDocument, documentToEditor, editorToDocument, getSchema } from './model';

const toNode = (document: JSONDocument) => ProseMirrorNode.fromJSON(getSchema(), documentToEditor(document));

describe('docToDocument (a save converts the changed blocks only)', () => {
  it('gives what the whole conversion gives, for documents of the official format', () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        const doc = toNode(document as JSONDocument);
        expect(docToDocument(doc)).toEqual(editorToDocument(doc.toJSON()));
      }),
      { numRuns: 60 },
    );
  });

  it('reuses the blocks an edit did not touch and converts the one it did', () => {
    const doc = toNode({
      object: 'document',
      data: {},
      nodes: ['one', 'two', 'three'].map((word) => ({
        object: 'block',
        type: 'paragraph',
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: word, marks: [] }] }],
      })),
    } as unknown as JSONDocument);
    const before = docToDocument(doc);
    // Typing "!" at the end of the second paragraph.
    const end = doc.child(0).nodeSize + 1 + doc.child(1).content.size;
    const edited = EditorState.create({ doc }).tr.insertText('!', end).doc;
    const after = docToDocument(edited);
    expect(after).toEqual(editorToDocument(edited.toJSON()));
    expect(after.nodes[0]).toBe(before.nodes[0]);
    expect(after.nodes[1]).not.toBe(before.nodes[1]);
    expect(after.nodes[2]).toBe(before.nodes[2]);
    expect(JSON.stringify(after.nodes[1])).toContain('two!');
  });
});
