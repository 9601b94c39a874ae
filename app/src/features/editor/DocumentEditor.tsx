/**
 * The page body editor: TipTap over the Document model the server checks writes with
 * (src/document-model), so what it edits is what the API stores, nodes it cannot edit yet included
 * (atoms). Not on a route yet: the page editing screen will hold it.
 */
import { EditorContent, useEditor } from '@tiptap/react';
import { type ReactNode, useRef } from 'react';
import {
  type Document,
  documentToEditor,
  type EditorNode,
  editorToDocument,
  extensions,
} from '../../../../src/document-model/index.js';
import { History } from './history';

export function DocumentEditor({
  document,
  onChange,
  editable = true,
}: {
  document: Document;
  /** The whole document after each change. */
  onChange?: (document: Document) => void;
  editable?: boolean;
}): ReactNode {
  // The editor is made once: the latest callback is read through a ref.
  const changed = useRef(onChange);
  changed.current = onChange;
  const editor = useEditor({
    extensions: [...extensions, History],
    content: documentToEditor(document),
    editable,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Page content',
        class: 'document document-editor',
      },
    },
    onUpdate: ({ editor: current }) => changed.current?.(editorToDocument(current.getJSON() as EditorNode)),
  });
  return <EditorContent editor={editor} />;
}
