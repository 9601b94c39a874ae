/**
 * An image pasted or dropped into a page: its bytes go to the organization's storage (a signed
 * upload URL, then one PUT), the file joins the change request by an `insert_files` batch edit
 * through the session's save queue (so with `If-Match`, in order with the page's saves), and the
 * body gets an `images` block whose `image` refs that file (the shape the Markdown importer makes:
 * `{ref: {kind: 'file', file}, alt?}`).
 */
import type { Editor, JSONContent } from '@tiptap/core';
import { ApiError, request } from '../../api/client';
import type { SaveQueue } from './save-queue';

/** The largest file the storage takes (5 MiB, see docs/guide/content.md). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Uploads `file` and inserts it into the change request; resolves the new file (its id and URL). */
export async function uploadImage(
  file: File,
  organizationId: string,
  queue: SaveQueue,
): Promise<{ id: string; downloadURL?: string }> {
  if (file.size > MAX_IMAGE_BYTES) throw new Error(`${file.name} is larger than 5 MB`);
  if (file.size === 0) throw new Error(`${file.name} is empty`);
  const signed = await request<{ url: string; key: string }>(
    `/v1/orgs/${encodeURIComponent(organizationId)}/storage/upload`,
    {
      method: 'POST',
      body: { file: { name: file.name || 'image', type: file.type, size: file.size }, kind: 'organization_file' },
    },
  );
  const put = await fetch(signed.url, { method: 'PUT', headers: { 'content-type': file.type }, body: file });
  if (!put.ok) {
    const answer = (await put.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new ApiError(put.status, answer?.error?.message ?? `The upload failed (${put.status})`);
  }
  const answer = await queue.run([
    { operation: 'insert_files', files: [{ name: file.name || 'image', storageKey: signed.key }] },
  ]);
  const inserted = answer.insertedFiles?.[0];
  if (!inserted?.id) throw new Error('The change request did not answer the inserted file');
  return inserted;
}

/**
 * The download URLs of the change request's files, asked once per file (an image shown twice, or
 * again after an undo, does not ask again); the files this session uploaded are known already.
 */
export class FileUrls {
  private readonly known = new Map<string, Promise<string | undefined>>();

  constructor(private readonly filesPath: string) {}

  set(fileId: string, url: string | undefined): void {
    if (url) this.known.set(fileId, Promise.resolve(url));
  }

  get(fileId: string): Promise<string | undefined> {
    let url = this.known.get(fileId);
    if (!url) {
      url = request<{ downloadURL?: string }>(`${this.filesPath}/${encodeURIComponent(fileId)}`).then(
        (file) => file.downloadURL,
        () => undefined,
      );
      this.known.set(fileId, url);
    }
    return url;
  }
}

/** The `images` block of one uploaded file. */
export function imagesBlock(fileId: string): JSONContent {
  return { type: 'images', content: [{ type: 'image', attrs: { data: { ref: { kind: 'file', file: fileId } } } }] };
}

/** The position of the image that refs `fileId`, or null. */
export function findImage(editor: Editor, fileId: string): number | null {
  let found: number | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (found !== null) return false;
    const ref = (node.attrs.data as { ref?: { file?: string } } | null)?.ref;
    if (node.type.name === 'image' && ref?.file === fileId) found = pos;
    return found === null;
  });
  return found;
}

/** The alt text of the image that refs `fileId` ('' when none). */
export function imageAlt(editor: Editor, fileId: string): string {
  const pos = findImage(editor, fileId);
  const data = pos === null ? null : (editor.state.doc.nodeAt(pos)?.attrs.data as { alt?: unknown } | null);
  return typeof data?.alt === 'string' ? data.alt : '';
}

/** Sets (or clears) the alt text of the image that refs `fileId`. */
export function setImageAlt(editor: Editor, fileId: string, alt: string): boolean {
  const pos = findImage(editor, fileId);
  if (pos === null) return false;
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return false;
  const { alt: _old, ...rest } = (node.attrs.data ?? {}) as Record<string, unknown>;
  const data = alt.trim() ? { ...rest, alt: alt.trim() } : rest;
  editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, data }));
  return true;
}
