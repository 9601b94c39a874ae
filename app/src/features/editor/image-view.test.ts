import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { EditorState, NodeSelection, type Transaction } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { documentSchema } from '../../../../src/document-model/index.js';
import { dropEmptiedImages } from './image-view';

const schema = documentSchema();
const type = (name: string) => {
  const found = schema.nodes[name];
  if (!found) throw new Error(`no ${name} in the schema`);
  return found;
};
const image = (file = 'f') => type('image').create({ data: { ref: { kind: 'file', file } } });
const para = (text = 'x') => type('paragraph').create(null, schema.text(text));
const images = (...children: ProseMirrorNode[]) => type('images').create(null, children);

/** What the cleanup deleted before it looked only at the changed ranges: it walked both documents. */
function wholeDocumentCleanup(transactions: readonly Transaction[], before: EditorState, after: EditorState) {
  const empties = (doc: ProseMirrorNode) => {
    const found: number[] = [];
    doc.descendants((node, pos) => {
      if (node.type.name === 'images' && node.childCount === 0) found.push(pos);
      return node.type.name !== 'images';
    });
    return found;
  };
  const kept = new Set(empties(before.doc).map((pos) => transactions.reduce((at, tr) => tr.mapping.map(at, 1), pos)));
  return empties(after.doc).filter((pos) => !kept.has(pos));
}

/** The document after `edits` (each a transaction of the state so far) and the cleanup. */
function edit(doc: ProseMirrorNode, ...edits: Array<(state: EditorState) => Transaction>) {
  const before = EditorState.create({ doc });
  let after = before;
  const transactions: Transaction[] = [];
  for (const make of edits) {
    const tr = make(after);
    transactions.push(tr);
    after = after.apply(tr);
  }
  const cleanup = dropEmptiedImages(transactions, before, after);
  const deleted: number[] = [];
  cleanup?.steps.forEach((step) => {
    deleted.push((step as unknown as { from: number }).from);
  });
  return {
    blocks: (cleanup ? after.apply(cleanup).doc : after.doc).children.map((n) => n.type.name),
    deleted: deleted.sort((a, b) => a - b),
    expected: wholeDocumentCleanup(transactions, before, after),
  };
}

describe('dropEmptiedImages', () => {
  it('deletes an images block whose last image was deleted, keeps one that was empty already', () => {
    const doc = type('doc').create(null, [images(), para(), images(image())]);
    // The image of the second block (after the empty block, 2, and the paragraph, 3): at 5 + 1.
    const result = edit(doc, (s) => s.tr.setSelection(NodeSelection.create(s.doc, 6)).deleteSelection());
    expect(result.blocks).toEqual(['images', 'paragraph']);
    expect(result.deleted).toEqual(result.expected);
  });

  it('changes nothing when no images block was emptied', () => {
    const doc = type('doc').create(null, [images(), para()]);
    const before = EditorState.create({ doc });
    const tr = before.tr.insertText('y', 3);
    expect(dropEmptiedImages([tr], before, before.apply(tr))).toBeNull();
  });

  it('deletes what it deleted when it walked the whole document', () => {
    const doc = () =>
      type('doc').create(null, [para('a'), images(), para('b'), images(image('1'), image('2')), para()]);
    // Positions: para a 0–3, empty images 3–5, para b 5–8, images 8–12 (images at 9 and 10), para 12–15.
    const cases: Record<string, Array<(state: EditorState) => Transaction>> = {
      'one of two images deleted': [(s) => s.tr.delete(9, 10)],
      'both images deleted': [(s) => s.tr.delete(9, 11)],
      'typing next to an empty block': [(s) => s.tr.insertText('c', 2)],
      'the paragraph before an empty block deleted': [(s) => s.tr.delete(0, 3)],
      'an empty block pasted before another': [(s) => s.tr.insert(3, images())],
      'an empty block pasted after another': [(s) => s.tr.insert(5, images())],
      'a block with an image pasted': [(s) => s.tr.insert(15, images(image('3')))],
      'typing, then both images deleted': [(s) => s.tr.insertText('cc', 2), (s) => s.tr.delete(11, 13)],
      'both images deleted, then typing': [(s) => s.tr.delete(9, 11), (s) => s.tr.insertText('d', 1)],
      'a range across blocks deleted': [(s) => s.tr.delete(2, 10)],
      'an image typed over': [(s) => s.tr.setSelection(NodeSelection.create(s.doc, 9)).insertText('z')],
    };
    for (const [name, edits] of Object.entries(cases)) {
      const result = edit(doc(), ...edits);
      expect(result.deleted, name).toEqual(result.expected);
    }
    expect(edit(doc(), (s) => s.tr.delete(9, 11)).blocks).toEqual(['paragraph', 'images', 'paragraph', 'paragraph']);
    expect(edit(doc(), (s) => s.tr.insert(3, images())).deleted).toEqual([3]);
  });
});
