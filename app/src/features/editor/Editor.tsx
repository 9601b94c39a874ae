/**
 * The page body: TipTap's editable document (a multiline textbox named "Page content") with the
 * model's extensions, Markdown shortcuts (their input rules: `#`, `-`, `1.`, `>`, three backticks,
 * `**…**`), undo and redo (TipTap's history, kept across saves), the "/" menu, pasting and dropping
 * (actions.ts, paste.ts), Mod-k for "Link", and moving blocks: by the drag handle with the mouse,
 * by Alt-Shift-ArrowUp/Down from the keyboard (move.ts).
 */
import type { JSONContent, Editor as TiptapEditor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { actionExtensions, type EditorActions } from './actions';
import { addDragHandle, DragHandleSlot } from './drag-handle';
import { fillRest, firstScreen, onFilled } from './fill';
import { extensions } from './model';
import { SlashMenu } from './SlashMenu';
import { SlashStore, slashCommand } from './slash';

export function Editor({
  initial,
  onChange,
  onReady,
  actions,
}: {
  initial: JSONContent;
  onChange: () => void;
  onReady: (editor: TiptapEditor) => void;
  actions: EditorActions;
}) {
  const store = useMemo(() => new SlashStore(), []);
  const slash = useMemo(() => slashCommand(store), [store]);
  // The editor is made once: the latest callbacks are read through a ref.
  const latest = useRef(actions);
  latest.current = actions;
  const added = useMemo(() => actionExtensions(latest), []);
  // A screenful first, the rest appended once the editor is mounted (fill.ts says why).
  const [parts] = useState(() => firstScreen(initial));
  const editor = useEditor({
    extensions: [...extensions, slash, ...added, DragHandleSlot],
    content: parts.first,
    // Made in the effect after the first commit, not while rendering: made while rendering, TipTap
    // destroys it unless that render is committed within a millisecond (its timer), and React renders
    // in slices: a long page's editor was often built twice on a busy machine.
    immediatelyRender: false,
    // TipTap's own <style> element would break the app's Content-Security-Policy (style-src 'self'):
    // its few rules are in styles.css.
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Page content',
        'aria-keyshortcuts': 'Control+K Alt+Shift+ArrowUp Alt+Shift+ArrowDown',
        class: 'editor-body',
      },
    },
    onUpdate: () => onChange(),
  });
  // The editor useEditor hands out (under StrictMode a first one is made and destroyed: not onCreate's).
  useEffect(() => {
    if (!editor) return;
    onReady(editor);
    return fillRest(editor, parts.rest);
  }, [editor, onReady, parts]);
  // The drag handle once the whole page is in (drag-handle.ts): into its slot, the editor not rendered again.
  useEffect(() => {
    if (!editor) return;
    let removed = false;
    let remove = () => {};
    const cancel = onFilled(editor, () => {
      void addDragHandle(editor).then((take) => {
        if (removed) take();
        else remove = take;
      });
    });
    return () => {
      removed = true;
      cancel();
      remove();
    };
  }, [editor]);
  return (
    <div className="editor">
      <EditorContent editor={editor} />
      <SlashMenu store={store} />
    </div>
  );
}
