/** Turns bytes into a file of a revision: stored once (src/storage/files.ts), described here. */
import type { Db } from '../db/database.js';
import { contentTypeFor, putBlob } from '../storage/files.js';
import type { FileEntry } from './store.js';

export async function storeFile(
  db: Db,
  file: { id: string; name: string; contentType?: string; bytes: Uint8Array },
): Promise<FileEntry> {
  const contentType = file.contentType || contentTypeFor(file.name);
  const blob = await putBlob(db, file.bytes, contentType, file.name);
  return {
    id: file.id,
    name: file.name,
    contentType,
    size: blob.size,
    blob: blob.hash,
    oid: blob.gitOid,
    ...(blob.dimensions ? { dimensions: blob.dimensions } : {}),
  };
}
