import { EditorState, NodeSelection } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { documentSchema } from '../../../../src/document-model/index.js';
import { dropEmptiedImages } from './image-view';

const schema = documentSchema();
const type = (name: string) => {
  const found = schema.nodes[name];
  if (!found) throw new Error(`no ${name} in the schema`);
  return found;
};
const image = () => type('image').create({ data: { ref: { kind: 'file', file: 'f' } } });
const para = () => type('paragraph').create(null, schema.text('x'));

describe('dropEmptiedImages', () => {
  it('deletes an images block whose last image was deleted, keeps one that was empty already', () => {
    const doc = type('doc').create(null, [type('images').create(), para(), type('images').create(null, image())]);
    const before = EditorState.create({ doc });
    // The image of the second block (after the empty block, 2, and the paragraph, 3): at 5 + 1.
    const tr = before.tr.setSelection(NodeSelection.create(doc, 6)).deleteSelection();
    const after = before.apply(tr);
    const cleanup = dropEmptiedImages([tr], before, after);
    const result = cleanup ? after.apply(cleanup).doc : after.doc;
    expect(result.children.map((n) => n.type.name)).toEqual(['images', 'paragraph']);
  });

  it('changes nothing when no images block was emptied', () => {
    const doc = type('doc').create(null, [type('images').create(), para()]);
    const before = EditorState.create({ doc });
    const tr = before.tr.insertText('y', 3);
    expect(dropEmptiedImages([tr], before, before.apply(tr))).toBeNull();
  });
});
