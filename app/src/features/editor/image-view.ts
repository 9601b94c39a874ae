/**
 * How the body shows an `image` block: the picture itself (its file's download URL, asked of the
 * change request once per file, or its http(s) URL) with its alt text, and a button to change that
 * text. Only the view: the node, its data and its HTML stay the model's (copy and paste unchanged).
 */
import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';

export interface ImageViewOptions {
  /** The download URL of a file of the change request. */
  fileUrl: (fileId: string) => Promise<string | undefined>;
  /** Asks for the alt text of the image of `fileId`. */
  editAlt: (fileId: string) => void;
}

interface ImageData {
  ref?: { kind?: string; file?: string; url?: string };
  alt?: string;
}

const dataOf = (node: ProseMirrorNode) => (node.attrs.data ?? {}) as ImageData;

export const ImageView = Extension.create<ImageViewOptions>({
  name: 'imageView',
  addOptions: () => ({ fileUrl: async () => undefined, editAlt: () => undefined }),
  addProseMirrorPlugins() {
    const { options } = this;
    return [
      new Plugin({
        key: new PluginKey('imageView'),
        props: {
          nodeViews: {
            image: (initial) => {
              const dom = document.createElement('figure');
              dom.className = 'editor-image';
              dom.contentEditable = 'false';
              const img = document.createElement('img');
              const button = document.createElement('button');
              button.type = 'button';
              button.textContent = 'Alt text';
              dom.append(img, button);
              let current = initial;
              const draw = (node: ProseMirrorNode) => {
                const { ref, alt } = dataOf(node);
                img.alt = alt ?? '';
                button.setAttribute('aria-label', alt ? `Alt text: ${alt}` : 'Alt text (none yet)');
                button.hidden = ref?.kind !== 'file' || !ref.file;
                if (ref?.kind === 'url' && ref.url && /^https?:/i.test(ref.url)) img.src = ref.url;
                else if (ref?.kind === 'file' && ref.file) {
                  const file = ref.file;
                  void options.fileUrl(file).then((url) => {
                    if (url && dataOf(current).ref?.file === file) img.src = url;
                  });
                }
              };
              button.addEventListener('click', () => {
                const file = dataOf(current).ref?.file;
                if (file) options.editAlt(file);
              });
              draw(initial);
              return {
                dom,
                update: (node) => {
                  if (node.type !== initial.type) return false;
                  current = node;
                  draw(node);
                  return true;
                },
                // The button is the view's own: ProseMirror leaves its clicks alone.
                stopEvent: (event) => event.target === button,
                ignoreMutation: () => true,
              };
            },
          },
        },
      }),
    ];
  },
});
