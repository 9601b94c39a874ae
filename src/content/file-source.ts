/**
 * The bytes of a file `insert_files` inserts, from the source it names: inline `base64`, a `url`
 * (fetched through the guarded client) or, a Bindery extension, the `storageKey` of a file uploaded
 * through a signed URL (src/storage/uploads.ts); then stored as a file of the revision.
 */
import type { Db } from '../db/database.js';
import { badRequest } from '../lib/errors.js';
import { storeFile as storeFileEntry } from './file-entry.js';
import { readSource } from './source.js';
import type { FileEntry } from './store.js';

export interface BatchOptions {
  allowPrivateFetch: boolean;
  maxFileBytes: number;
  /**
   * The bytes of a file uploaded through a signed URL (`storageKey`, a Bindery extension), looked
   * up where the caller may (its organization); none: `storageKey` is refused.
   */
  readUpload?: (key: string, at: string) => Promise<{ bytes: Buffer; contentType: string }>;
  /**
   * Whether the page is new in the change request (not in the live content it started from): its
   * path then follows its title (batch.ts). None: no page is new (paths change only when asked).
   */
  isNewPage?: (pageId: string) => Promise<boolean>;
}

/** A file of the batch, stored; `at` names it in errors. */
export async function storeFile(
  db: Db,
  file: { name: string; contentType?: string; url?: string; base64?: string; storageKey?: string },
  at: string,
  id: string,
  options: BatchOptions,
): Promise<FileEntry> {
  let bytes: Buffer;
  let sourceType = '';
  const sources = [file.url, file.base64, file.storageKey].filter((s) => s !== undefined).length;
  if (file.storageKey !== undefined && sources > 1)
    throw badRequest(`${at}: storageKey is a source of its own, without url or base64`);
  if (file.storageKey !== undefined) {
    if (!options.readUpload) throw badRequest(`${at}/storageKey: uploads cannot be inserted here`);
    const upload = await options.readUpload(file.storageKey, at);
    bytes = upload.bytes;
    sourceType = upload.contentType;
  } else if (file.base64 !== undefined) {
    if (!file.contentType) throw badRequest(`${at}/contentType is required with base64`);
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(file.base64)) throw badRequest(`${at}/base64 is not valid base64`);
    bytes = Buffer.from(file.base64, 'base64');
  } else if (file.url !== undefined) {
    const source = await readSource(file.url, {
      allowPrivate: options.allowPrivateFetch,
      maxBytes: options.maxFileBytes,
    });
    bytes = source.body;
    sourceType = source.contentType.split(';')[0]?.trim() ?? '';
  } else {
    throw badRequest(`${at} needs one of url, base64 or storageKey`);
  }
  const contentType =
    file.contentType || (sourceType && sourceType !== 'application/octet-stream' ? sourceType : undefined);
  return storeFileEntry(db, { id, name: file.name, contentType, bytes });
}
