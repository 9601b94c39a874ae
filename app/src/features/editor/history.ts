/** Undo and redo for the page body editor (ProseMirror's history; typing within half a second is one step). */
import { Extension } from '@tiptap/core';
import { history, redo, undo } from '@tiptap/pm/history';

export const History = Extension.create({
  name: 'history',
  addProseMirrorPlugins: () => [history()],
  addKeyboardShortcuts() {
    const run = (command: typeof undo) => () => command(this.editor.state, this.editor.view.dispatch);
    return { 'Mod-z': run(undo), 'Shift-Mod-z': run(redo), 'Mod-y': run(redo) };
  },
});
