/**
 * Files uploaded through a signed URL (`generateStorageUploadURL`): the URL is Bindery's own,
 * `{PUBLIC_URL}/storage/uploads/{key}?signature=…`, and accepts one PUT of the bytes without an
 * access token. The signature is an HMAC-SHA256 of the upload's id and organization under a key
 * the server generates once and keeps in `settings` (src/core/keys.ts), so only URLs this server
 * made open; the expiry, the declared type and size and the single use are checked against the
 * upload's row (the URL carries none of them, so none can be changed by editing it).
 *
 * An uploaded file is then named by its key in a change request's `insert_files`
 * ({@link uploadedFile}), within the organization it was uploaded to.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getOrCreateSetting } from '../core/keys.js';
import type { DbOrTrx } from '../core/service.js';
import type { Db } from '../db/database.js';
import { conflict, notFound } from '../lib/errors.js';
import { newSecret } from '../lib/ids.js';
import { readBlob } from './files.js';

/** How long an upload URL stays valid. */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;

async function uploadKey(db: Db): Promise<Buffer> {
  return Buffer.from(await getOrCreateSetting(db, 'storage_upload_key', () => newSecret(32)), 'base64url');
}

/** The signature of upload `id` of `organizationId`, base64url. */
export async function uploadSignature(db: Db, id: string, organizationId: string): Promise<string> {
  return createHmac('sha256', await uploadKey(db))
    .update(`storage-upload:${id}:${organizationId}`)
    .digest('base64url');
}

/** Whether `signature` is the one this server makes for the upload (compared in constant time). */
export async function signatureMatches(
  db: Db,
  id: string,
  organizationId: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature) return false;
  const expected = Buffer.from(await uploadSignature(db, id, organizationId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The path of an upload's URL, under the public URL (outside `/v1`: no token is asked there). */
export function uploadPath(id: string, signature: string): string {
  return `/storage/uploads/${encodeURIComponent(id)}?signature=${signature}`;
}

export async function findUpload(db: DbOrTrx, id: string) {
  return db.selectFrom('storage_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The bytes and declared type of upload `key` of `organizationId`, for a file inserted by its key:
 * 404 when the organization has no such upload (another organization's is not revealed), 409 while
 * its bytes have not been sent.
 */
export async function uploadedFile(
  db: Db,
  organizationId: string,
  key: string,
  at: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const row = await findUpload(db, key);
  if (!row || row.organization_id !== organizationId) throw notFound(`${at}/storageKey: upload ${key} not found`);
  const bytes = row.blob_hash ? await readBlob(db, row.blob_hash) : undefined;
  if (!bytes) throw conflict(`${at}/storageKey: upload ${key} has not been sent yet`);
  return { bytes, contentType: row.content_type };
}
