/**
 * How the body shows an `image` block: the picture itself (its file's download URL, asked of the
 * change request once per file, or its http(s) URL) with its alt text, and a button to change that
 * text. Only the view: the node, its data and its HTML stay the model's (copy and paste unchanged).
 * An `images` block whose last image was just deleted (or typed over) goes too; one read empty from
 * the document (also when appended after the first screenful, fill.ts) stays as it was.
 */
import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import { changedRanges } from '../../../../src/document-model/changed-ranges.js';
import { FILL_META } from './fill';

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

/** The `images` blocks without an image that overlap `ranges` of `doc` (their positions). */
function emptyImagesIn(doc: ProseMirrorNode, ranges: Array<[number, number]>): number[] {
  const found = new Set<number>();
  for (const [from, to] of ranges) {
    doc.nodesBetween(Math.max(0, from), Math.min(to, doc.content.size), (node, pos) => {
      if (node.type.name !== 'images') return true;
      if (node.childCount === 0) found.add(pos);
      return false;
    });
  }
  return [...found].sort((a, b) => a - b);
}

const isEmptyImages = (node: ProseMirrorNode | null | undefined) => node?.type.name === 'images' && !node.childCount;

/**
 * Deletes the `images` blocks the transactions emptied (not those that were empty before them). An
 * emptied block is in a range they changed: only those ranges are looked at, not the whole document
 * on every keystroke. One there is kept when it was an empty block of the document before, which
 * the transactions moved there.
 */
export function dropEmptiedImages(
  transactions: readonly Transaction[],
  before: EditorState,
  after: EditorState,
): Transaction | null {
  if (!transactions.some((tr) => tr.docChanged)) return null;
  // The rest of the page being appended as it opens (fill.ts): its empty blocks were read so.
  if (transactions.some((tr) => tr.getMeta(FILL_META))) return null;
  const now = emptyImagesIn(after.doc, changedRanges(transactions));
  if (!now.length) return null;
  const mapping = new Mapping();
  for (const tr of transactions) mapping.appendMapping(tr.mapping);
  const back = mapping.invert();
  const wasEmpty = (pos: number) =>
    [back.map(pos, -1), back.map(pos, 1)].some(
      (old) => isEmptyImages(before.doc.nodeAt(old)) && mapping.map(old, 1) === pos,
    );
  const emptied = now.filter((pos) => !wasEmpty(pos));
  if (!emptied.length) return null;
  const tr = after.tr;
  for (const pos of emptied.reverse()) {
    const node = tr.doc.nodeAt(pos);
    if (node) tr.delete(pos, pos + node.nodeSize);
  }
  return tr;
}

export const ImageView = Extension.create<ImageViewOptions>({
  name: 'imageView',
  addOptions: () => ({ fileUrl: async () => undefined, editAlt: () => undefined }),
  addProseMirrorPlugins() {
    const { options } = this;
    return [
      new Plugin({
        key: new PluginKey('imageView'),
        appendTransaction: dropEmptiedImages,
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
