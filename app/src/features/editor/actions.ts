/**
 * What the editor asks of the screen around it: pick an image file (the "/" menu's "Image"), open
 * the "Link" dialog (Mod-k, the toolbar's "Link"), take pasted or dropped images, report an error,
 * find an image file's URL and ask for its alt text (image-view.ts).
 * One extension holds the screen's callbacks (read through `current` so the editor is made once)
 * and brings the keys, the paste handling and the keyboard move.
 */
import { type Editor, Extension } from '@tiptap/core';
import { ImageView } from './image-view';
import { KeyboardMove } from './move';
import { PasteHandling } from './paste';

export interface EditorActions {
  pickImage: () => void;
  openLink: () => void;
  onImages: (files: File[], at: number | null) => void;
  onError: (message: string) => void;
  fileUrl: (fileId: string) => Promise<string | undefined>;
  editAlt: (fileId: string) => void;
}

export function actionExtensions(actions: { current: EditorActions }) {
  const Actions = Extension.create({
    name: 'editorActions',
    addStorage: () => ({ actions }),
    addKeyboardShortcuts: () => ({
      'Mod-k': () => {
        actions.current.openLink();
        return true;
      },
    }),
  });
  return [
    Actions,
    KeyboardMove,
    PasteHandling.configure({
      onImages: (files, at) => actions.current.onImages(files, at),
      onError: (message) => actions.current.onError(message),
    }),
    ImageView.configure({
      fileUrl: (fileId) => actions.current.fileUrl(fileId),
      editAlt: (fileId) => actions.current.editAlt(fileId),
    }),
  ];
}

/** The screen's callbacks of an editor made with {@link actionExtensions}. */
export function editorActions(editor: Editor): EditorActions | null {
  const storage = (editor.storage as unknown as Record<string, { actions?: { current: EditorActions } }>).editorActions;
  return storage?.actions?.current ?? null;
}
