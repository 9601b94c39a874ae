import { EditorState, NodeSelection, TextSelection, type Transaction } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { documentSchema } from '../../../../src/document-model/index.js';
import { moveBlock } from './move';

const schema = documentSchema();
const type = (name: string) => {
  const found = schema.nodes[name];
  if (!found) throw new Error(`no ${name} in the schema`);
  return found;
};
const p = (text: string) => type('paragraph').create(null, schema.text(text));
const item = (text: string) => type('listItem').create(null, p(text));

function stateOf(blocks: ReturnType<typeof p>[], at: (doc: EditorState['doc']) => EditorState['selection']) {
  const doc = type('doc').create(null, blocks);
  return EditorState.create({ doc, selection: at(doc) });
}
const texts = (state: EditorState) => state.doc.children.map((n) => n.textContent);
function run(state: EditorState, direction: -1 | 1): EditorState | null {
  let next: EditorState | null = null;
  const ok = moveBlock(state, direction, (tr: Transaction) => {
    next = state.apply(tr);
  });
  return ok ? next : null;
}

describe('moveBlock', () => {
  it('swaps the block at the caret with its neighbour, keeping the caret in it', () => {
    const state = stateOf([p('one'), p('two'), p('three')], (doc) => TextSelection.create(doc, 7));
    const up = run(state, -1) as EditorState;
    expect(texts(up)).toEqual(['two', 'one', 'three']);
    expect(up.selection.$from.parent.textContent).toBe('two');
    const down = run(up, 1) as EditorState;
    expect(texts(down)).toEqual(['one', 'two', 'three']);
    expect(
      run(
        stateOf([p('one'), p('two')], (doc) => TextSelection.create(doc, 2)),
        -1,
      ),
    ).toBeNull();
  });

  it('moves a list item within its list', () => {
    const list = type('bulletList').create(null, [item('a'), item('b')]);
    const state = stateOf([list], (doc) => TextSelection.create(doc, 8));
    expect(state.selection.$from.parent.textContent).toBe('b');
    const up = run(state, -1) as EditorState;
    expect(up.doc.child(0).children.map((n) => n.textContent)).toEqual(['b', 'a']);
  });

  it('moves a selected void block', () => {
    const state = stateOf([p('one'), type('divider').create()], (doc) => NodeSelection.create(doc, 5));
    const up = run(state, -1) as EditorState;
    expect(up.doc.child(0).type.name).toBe('divider');
    expect((up.selection as NodeSelection).node.type.name).toBe('divider');
  });
});
