/**
 * The page body: TipTap's editable document (a multiline textbox named "Page content") with the
 * model's extensions, Markdown shortcuts (their input rules: `#`, `-`, `1.`, `>`, three backticks,
 * `**…**`), undo and redo (TipTap's history, kept across saves), and the "/" menu.
 */
import type { JSONContent, Editor as TiptapEditor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo } from 'react';
import { extensions } from './model';
import { SlashMenu } from './SlashMenu';
import { SlashStore, slashCommand } from './slash';

export function Editor({
  initial,
  onChange,
  onReady,
}: {
  initial: JSONContent;
  onChange: () => void;
  onReady: (editor: TiptapEditor) => void;
}) {
  const store = useMemo(() => new SlashStore(), []);
  const slash = useMemo(() => slashCommand(store), [store]);
  const editor = useEditor({
    extensions: [...extensions, slash],
    content: initial,
    // TipTap's own <style> element would break the app's Content-Security-Policy (style-src 'self'):
    // its few rules are in styles.css.
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Page content',
        class: 'editor-body',
      },
    },
    onUpdate: () => onChange(),
  });
  // The editor useEditor hands out (under StrictMode a first one is made and destroyed: not onCreate's).
  useEffect(() => {
    if (editor) onReady(editor);
  }, [editor, onReady]);
  return (
    <div className="editor">
      <EditorContent editor={editor} />
      <SlashMenu store={store} />
    </div>
  );
}
