import type { Static } from 'typebox';
import type { StorageUploadRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import { uploadPath } from '../../storage/uploads.js';
import type { StorageUploadURL } from './schemas.js';

export function presentUploadUrl(
  row: StorageUploadRow,
  signature: string,
  urls: Urls,
): Static<typeof StorageUploadURL> {
  return { object: 'storage-signed-url', url: urls.app(uploadPath(row.id, signature)), key: row.id };
}

/** An upload as events show it (never its signature: whoever reads the audit log could upload). */
export function presentUpload(row: StorageUploadRow) {
  return {
    object: 'storage-upload',
    key: row.id,
    kind: row.kind,
    file: { name: row.name, type: row.content_type, size: row.size ?? row.size_limit },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    uploadedAt: row.uploaded_at,
  };
}
