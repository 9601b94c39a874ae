/**
 * The one place file bytes are kept: the `file_blobs` table, keyed by the SHA-256 of the bytes, so
 * the same bytes uploaded twice (or carried by many revisions) are stored once. Everything else
 * refers to files by that hash.
 *
 * Limit: a file is at most {@link MAX_FILE_BYTES} bytes; larger uploads are refused with 413.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import { payloadTooLarge } from '../lib/errors.js';
import { nowIso } from '../lib/time.js';

/** Largest file accepted, in bytes (5 MiB). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface StoredBlob {
  hash: string;
  size: number;
  /** The bytes' Git blob id (what Git Sync would call the file). */
  gitOid: string;
  /** For images whose size can be read. */
  dimensions?: { width: number; height: number };
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Git's blob id of `bytes`: SHA-1 of `blob <size>\0<bytes>`. */
export function gitBlobOid(bytes: Uint8Array | string): string {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return createHash('sha1').update(`blob ${buffer.byteLength}\0`).update(buffer).digest('hex');
}

/** Width and height of an image, or undefined when the bytes are not an image we can read. */
export async function imageDimensions(
  bytes: Uint8Array,
  contentType: string,
): Promise<{ width: number; height: number } | undefined> {
  if (!contentType.startsWith('image/')) return undefined;
  // Loaded with the first image (idle memory: most processes never store one).
  const { imageSize } = await import('image-size');
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** Stores `bytes` (once per content) and describes them; 413 over the size limit. */
export async function putBlob(db: Db, bytes: Uint8Array, contentType: string, name = 'file'): Promise<StoredBlob> {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw payloadTooLarge(`file ${name} is ${bytes.byteLength} bytes; the limit is ${MAX_FILE_BYTES}`);
  }
  const hash = hashBytes(bytes);
  await db
    .insertInto('file_blobs')
    .values({ hash, bytes: Buffer.from(bytes), size: bytes.byteLength, created_at: nowIso() })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  const dimensions = await imageDimensions(bytes, contentType);
  return { hash, size: bytes.byteLength, gitOid: gitBlobOid(bytes), ...(dimensions ? { dimensions } : {}) };
}

/** The bytes stored under `hash`, or undefined. */
export async function readBlob(db: Db, hash: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('file_blobs').select('bytes').where('hash', '=', hash).executeTakeFirst();
  return row ? Buffer.from(row.bytes) : undefined;
}

/** A content type from a file name, for sources that do not say (archives, data URIs without one). */
export function contentTypeFor(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    svg: 'image/svg+xml',
    bmp: 'image/bmp',
    ico: 'image/x-icon',
    pdf: 'application/pdf',
    txt: 'text/plain',
    md: 'text/markdown',
    json: 'application/json',
    zip: 'application/zip',
    csv: 'text/csv',
  };
  return types[ext] ?? 'application/octet-stream';
}
