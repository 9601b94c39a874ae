import type { DbOrTrx } from '../../core/service.js';
import type { StorageUploadRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';

export async function insertUpload(
  db: DbOrTrx,
  values: Pick<StorageUploadRow, 'organization_id' | 'created_by' | 'kind' | 'name' | 'content_type' | 'size_limit'> & {
    expiresAt: Date;
  },
): Promise<StorageUploadRow> {
  const { expiresAt, ...rest } = values;
  const row: StorageUploadRow = {
    id: newId(),
    ...rest,
    expires_at: expiresAt.toISOString(),
    blob_hash: null,
    size: null,
    uploaded_at: null,
    created_at: nowIso(),
  };
  await db.insertInto('storage_uploads').values(row).execute();
  return row;
}

/** Marks the upload sent, if no other PUT did first (compare-and-set); undefined when one did. */
export async function completeUpload(
  db: DbOrTrx,
  id: string,
  blob: { hash: string; size: number },
): Promise<StorageUploadRow | undefined> {
  return db
    .updateTable('storage_uploads')
    .set({ blob_hash: blob.hash, size: blob.size, uploaded_at: nowIso() })
    .where('id', '=', id)
    .where('uploaded_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function findUser(db: DbOrTrx, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}
