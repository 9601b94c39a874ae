import { Editor } from '@tiptap/core';
import { redo, undo, undoDepth } from '@tiptap/pm/history';
import { EditorState } from '@tiptap/pm/state';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { documentArbitrary } from '../../../../test/helpers/document-arbitraries.js';
import type { JSONDocument } from '../document/types';
import { actionExtensions, type EditorActions } from './actions';
import { appendBlocks, dropFill, fillRest, firstScreen, onFilled } from './fill';
import { docToDocument, documentToEditor, extensions } from './model';

// TipTap's keymaps ask the platform (Node 20 has no navigator).
if (typeof navigator === 'undefined') vi.stubGlobal('navigator', { platform: 'Linux', userAgent: 'node' });

/** The page editor's extensions (Editor.tsx, without the "/" menu) in an editor without a view. */
const editor = new Editor({
  extensions: [...extensions, ...actionExtensions({ current: {} as EditorActions })],
  content: documentToEditor(null),
});
const plugins = editor.extensionManager.plugins;
const schema = editor.schema;

/** The editor's state of `first`, with every plugin of the page editor (their appendTransaction too). */
const stateOf = (first: ReturnType<typeof documentToEditor>) =>
  EditorState.create({ doc: schema.nodeFromJSON(first), plugins });

const paragraph = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** The editor's state of `blocks` opened with one block first and the rest appended, and its whole build. */
function appendedAfterOne(blocks: unknown[]) {
  const json = documentToEditor({ object: 'document', data: {}, nodes: blocks } as unknown as JSONDocument);
  const { first, rest } = firstScreen(json, { blocks: 1, chars: Number.POSITIVE_INFINITY });
  const start = stateOf(first);
  return { rest, state: start.applyTransaction(appendBlocks(start, rest)).state, whole: schema.nodeFromJSON(json) };
}

describe('firstScreen and appendBlocks (a long page opens with a screenful, the rest appended)', () => {
  it('give the document the whole build gives, whatever the split, and nothing to undo', () => {
    fc.assert(
      fc.property(documentArbitrary, fc.nat(8), (document, at) => {
        const json = documentToEditor(document as JSONDocument);
        const whole = schema.nodeFromJSON(json);
        const { first, rest } = firstScreen(json, { blocks: at, chars: Number.POSITIVE_INFINITY });
        const { state } = stateOf(first).applyTransaction(appendBlocks(stateOf(first), rest));
        expect(state.doc.eq(whole)).toBe(true);
        expect(docToDocument(state.doc)).toEqual(docToDocument(whole));
        expect(undoDepth(state)).toBe(0);
      }),
      { numRuns: 80 },
    );
  });

  it('appends the rest as it is after a first screen without text (not "cleared" by TipTap)', () => {
    // Found by the property above: the first screen's selection covers all of a document without
    // text, and TipTap's clear-document plugin replaced the appended heading by a paragraph.
    const { rest, state, whole } = appendedAfterOne([
      { object: 'block', type: 'list-ordered', data: {}, nodes: [] },
      { object: 'block', type: 'heading-1', data: {}, nodes: [] },
    ]);
    expect(rest).toHaveLength(1);
    expect(state.doc.eq(whole)).toBe(true);
  });

  it('keeps an empty images block of the rest (not one the person emptied)', () => {
    const { rest, state, whole } = appendedAfterOne([
      paragraph('one'),
      { object: 'block', type: 'images', nodes: [] },
      paragraph('two'),
    ]);
    expect(rest).toHaveLength(2);
    expect(state.doc.eq(whole)).toBe(true);
  });

  it('keeps what was typed before the rest came, and undo takes back only that', () => {
    const json = documentToEditor({
      object: 'document',
      data: {},
      nodes: ['one', 'two', 'three'].map(paragraph),
    } as unknown as JSONDocument);
    const { first, rest } = firstScreen(json, { blocks: 1, chars: Number.POSITIVE_INFINITY });
    let state = stateOf(first);
    state = state.apply(state.tr.insertText('!', 4));
    state = state.applyTransaction(appendBlocks(state, rest)).state;
    expect(state.doc.textContent).toBe('one!twothree');
    let undone = state;
    undo(state, (tr) => {
      undone = state.apply(tr);
    });
    expect(undone.doc.eq(schema.nodeFromJSON(json))).toBe(true);
    redo(undone, (tr) => {
      expect(undone.apply(tr).doc.textContent).toBe('one!twothree');
    });
  });

  it('splits after a screenful of text, and not a page that fits', () => {
    const long = documentToEditor({
      object: 'document',
      data: {},
      nodes: Array.from({ length: 200 }, (_, i) => paragraph(`Paragraph ${i} `.repeat(20))),
    } as unknown as JSONDocument);
    const { first, rest } = firstScreen(long);
    expect(first.content?.length).toBeGreaterThan(5);
    expect((first.content?.length ?? 0) + rest.length).toBe(200);
    expect(first.attrs).toEqual(long.attrs);
    const short = documentToEditor({
      object: 'document',
      data: {},
      nodes: [paragraph('a')],
    } as unknown as JSONDocument);
    expect(firstScreen(short)).toEqual({ first: short, rest: [] });
  });

  it('tells who waits for the whole page once it is in (at once when nothing was left out)', () => {
    const extensionsOf = [...extensions, ...actionExtensions({ current: {} as EditorActions })];
    const whole = new Editor({ extensions: extensionsOf, content: documentToEditor(null) });
    let told = 0;
    onFilled(whole, () => told++);
    expect(told).toBe(0);
    fillRest(whole, []);
    expect(told).toBe(1);
    onFilled(whole, () => told++);
    expect(told).toBe(2);
    // A page whose rest is dropped (replaced by another version) is as filled.
    const replaced = new Editor({ extensions: extensionsOf, content: documentToEditor(null) });
    onFilled(replaced, () => told++);
    const cancel = fillRest(replaced, [{ type: 'paragraph' }]);
    cancel();
    expect(told).toBe(2);
    dropFill(replaced);
    expect(told).toBe(3);
  });
});
