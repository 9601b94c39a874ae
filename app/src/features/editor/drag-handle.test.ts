import { EditorState, Plugin } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { documentSchema } from '../../../../src/document-model/index.js';
import { pluginSlot } from './drag-handle';

const schema = documentSchema();

/** A plugin that counts the transactions it sees and appends a mark of them. */
function counting() {
  const seen: number[] = [];
  const plugin = new Plugin<number>({
    state: {
      init: () => 0,
      apply: (tr, count) => {
        if (tr.docChanged) seen.push(count + 1);
        return count + 1;
      },
    },
    appendTransaction: (trs, _before, after) =>
      trs.some((tr) => tr.docChanged && !tr.getMeta('counted')) ? after.tr.setMeta('counted', true) : null,
  });
  return { plugin, seen };
}

describe('pluginSlot', () => {
  it('does nothing until filled, then runs the filled plugin in the same state, until emptied', () => {
    const slot = pluginSlot('test', []);
    const doc = schema.node('doc', null, [schema.node('paragraph')]);
    let state = EditorState.create({ doc, plugins: [slot.plugin] });
    const plugins = state.plugins;
    const type = (text: string) => {
      const { state: next, transactions } = state.applyTransaction(state.tr.insertText(text, 1));
      state = next;
      return transactions.length;
    };
    expect(type('a')).toBe(1);
    const { plugin, seen } = counting();
    slot.fill(plugin);
    // The filled plugin's state starts at the first transaction it sees; its appended one runs too.
    expect(type('b')).toBe(2);
    expect(seen).toEqual([1]);
    expect(state.plugins).toBe(plugins);
    slot.empty();
    expect(type('c')).toBe(1);
    expect(seen).toEqual([1]);
    expect(state.doc.textContent).toBe('cba');
  });

  it('empties only of the plugin named, not of one filled after it (StrictMode adds a handle twice)', () => {
    const slot = pluginSlot('test', []);
    const doc = schema.node('doc', null, [schema.node('paragraph')]);
    let state = EditorState.create({ doc, plugins: [slot.plugin] });
    const first = counting();
    const second = counting();
    slot.fill(first.plugin);
    slot.fill(second.plugin);
    slot.empty(first.plugin);
    state = state.applyTransaction(state.tr.insertText('a', 1)).state;
    expect(second.seen).toEqual([1]);
    slot.empty(second.plugin);
    state = state.applyTransaction(state.tr.insertText('b', 1)).state;
    expect(second.seen).toEqual([1]);
    expect(first.seen).toEqual([]);
  });

  it('refuses a plugin with a hook or a DOM event it would not forward', () => {
    const slot = pluginSlot('test', ['mousemove']);
    const listens = (events: string[]) =>
      new Plugin({ props: { handleDOMEvents: Object.fromEntries(events.map((e) => [e, () => false])) } });
    expect(() => slot.fill(listens(['mousemove']))).not.toThrow();
    expect(() => slot.fill(listens(['mousemove', 'click']))).toThrow(/does not forward click/);
    expect(() => slot.fill(new Plugin({ filterTransaction: () => true }))).toThrow(/filterTransaction/);
    expect(() => slot.fill(new Plugin({ props: { decorations: () => null } }))).toThrow(/decorations/);
  });
});
