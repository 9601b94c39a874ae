/**
 * What pasting and dropping bring into the body. Image files go to `onImages` (PageEditor uploads
 * them into the space). Markdown (plain text that looks like it) and HTML from elsewhere convert
 * through the import API's own converters (src/content: remark and rehype, pure JS), loaded lazily
 * the first time they are needed; HTML copied from this editor (ProseMirror marks it with
 * `data-pm-slice`) keeps ProseMirror's own parse, which keeps every attribute of the model.
 */
import { type Editor, Extension, type JSONContent } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { documentToEditor } from './model';

/** Plain text written in Markdown: a heading, list, quote, fence, table, link or emphasis. */
export function looksLikeMarkdown(text: string): boolean {
  return /^(#{1,6}\s|\s*[-*+]\s|\s*\d+[.)]\s|>\s|```|\|.*\|\s*$)|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\)/m.test(text);
}

const imagesOf = (data: DataTransfer | null): File[] =>
  Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));

/** The editor's blocks of pasted Markdown or HTML, through the import API's converters. */
export async function convertPasted(kind: 'markdown' | 'html', text: string): Promise<JSONContent[]> {
  const document =
    kind === 'markdown'
      ? (await import('../../../../src/content/markdown.js')).markdownToDocument(text)
      : (await import('../../../../src/content/html.js')).htmlToDocument(text, { keepLeadingHeading: true }).document;
  return documentToEditor(document as never).content ?? [];
}

export interface PasteOptions {
  onImages: (files: File[], at: number | null) => void;
  onError: (message: string) => void;
}

function insertConverted(editor: Editor, kind: 'markdown' | 'html', text: string, onError: (m: string) => void) {
  convertPasted(kind, text).then(
    (content) => {
      if (!editor.isDestroyed && content.length) editor.chain().focus().insertContent(content).run();
    },
    (error: unknown) =>
      onError(`The pasted ${kind === 'html' ? 'HTML' : 'Markdown'} could not be read: ${String(error)}`),
  );
}

export const PasteHandling = Extension.create<PasteOptions>({
  name: 'pasteHandling',
  addOptions: () => ({ onImages: () => undefined, onError: () => undefined }),
  addProseMirrorPlugins() {
    const { editor, options } = this;
    return [
      new Plugin({
        key: new PluginKey('pasteHandling'),
        props: {
          handlePaste: (view, event) => {
            const images = imagesOf(event.clipboardData);
            if (images.length) {
              options.onImages(images, null);
              return true;
            }
            // Inside a code block a paste is text, whatever it looks like.
            if (view.state.selection.$from.parent.type.spec.code) return false;
            const html = event.clipboardData?.getData('text/html') ?? '';
            if (html && !html.includes('data-pm-slice')) {
              insertConverted(editor, 'html', html, options.onError);
              return true;
            }
            const text = event.clipboardData?.getData('text/plain') ?? '';
            if (!html && looksLikeMarkdown(text)) {
              insertConverted(editor, 'markdown', text, options.onError);
              return true;
            }
            return false;
          },
          handleDrop: (view, event) => {
            const images = imagesOf(event.dataTransfer);
            if (!images.length) return false;
            const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
            // Images go between top-level blocks: before the one dropped on.
            const $at = at ? view.state.doc.resolve(at.pos) : null;
            options.onImages(images, $at ? ($at.depth > 0 ? $at.before(1) : $at.pos) : null);
            return true;
          },
        },
      }),
    ];
  },
});
