/**
 * The page body: TipTap's editable document (a multiline textbox named "Page content") with the
 * model's extensions, Markdown shortcuts (their input rules: `#`, `-`, `1.`, `>`, three backticks,
 * `**…**`), undo and redo (TipTap's history, kept across saves), the "/" menu, pasting and dropping
 * (actions.ts, paste.ts), Mod-k for "Link", and moving blocks: by the drag handle with the mouse,
 * by Alt-Shift-ArrowUp/Down from the keyboard (move.ts).
 */
import type { JSONContent, Editor as TiptapEditor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { actionExtensions, type EditorActions } from './actions';
import { fillRest, firstScreen, onFilled } from './fill';
import { extensions } from './model';
import { SlashMenu } from './SlashMenu';
import { SlashStore, slashCommand } from './slash';

/**
 * The drag handle, loaded once the page is shown: a mouse affordance, and most of the editor's script
 * (it brings Yjs, for collaborative editing, and runs its set-up as it loads).
 */
const DragHandle = lazy(() =>
  import('@tiptap/extension-drag-handle-react').then((module) => ({ default: module.DragHandle })),
);

/** The drag handle once the whole page is in (its own state: the editor is not rendered again). */
function LaterDragHandle({ editor }: { editor: TiptapEditor }) {
  const [shown, setShown] = useState(false);
  useEffect(() => onFilled(editor, () => setShown(true)), [editor]);
  if (!shown) return null;
  return (
    // Positioned by floating-ui through the CSSOM (element.style), which the CSP allows; a mouse
    // affordance only: from the keyboard, Alt-Shift-ArrowUp/Down moves the block.
    <Suspense fallback={null}>
      <DragHandle editor={editor} className="drag-handle">
        <span aria-hidden="true" title="Drag to move this block (keyboard: Alt+Shift+↑/↓)">
          ⠿
        </span>
      </DragHandle>
    </Suspense>
  );
}

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
    extensions: [...extensions, slash, ...added],
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
  return (
    <div className="editor">
      {editor ? <LaterDragHandle editor={editor} /> : null}
      <EditorContent editor={editor} />
      <SlashMenu store={store} />
    </div>
  );
}
