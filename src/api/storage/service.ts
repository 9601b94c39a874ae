/**
 * Uploads through signed URLs: making the URL (a member of the organization, `storage.upload_created`)
 * and receiving its one PUT (`storage.upload_completed`, by the member who made the URL: the URL
 * stands for them, so the upload is theirs and stops working if they leave the organization).
 */
import type { Readable } from 'node:stream';
import { type Actor, actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { StorageUploadRow } from '../../db/schema.js';
import { recordEvent } from '../../events/record.js';
import { ApiError, conflict, forbidden, notFound } from '../../lib/errors.js';
import { requireOrgMember } from '../../permissions/organization.js';
import { putBlob } from '../../storage/files.js';
import { findUpload, signatureMatches, UPLOAD_URL_TTL_MS, uploadSignature } from '../../storage/uploads.js';
import { presentUpload } from './present.js';
import { completeUpload, findUser, insertUpload } from './repo.js';

function recordUploadEvent(
  trx: Parameters<typeof recordEvent>[0],
  ctx: ServiceContext,
  type: 'storage.upload_created' | 'storage.upload_completed',
  row: StorageUploadRow,
) {
  return recordEvent(trx, ctx, {
    type,
    organizationId: row.organization_id,
    target: { object: 'storage-upload', id: row.id, label: row.name },
    data: { object: presentUpload(row) },
  });
}

/** A new upload of `input.file` into the organization, with its URL's signature. */
export async function generateUploadUrl(
  ctx: ServiceContext,
  organizationId: string,
  input: { file: { name: string; type: string; size: number }; kind: string },
): Promise<{ row: StorageUploadRow; signature: string }> {
  const user = actingUser(ctx);
  await requireOrgMember(ctx.db, organizationId, user.id);
  const row = await inTransaction(ctx.db, async (trx) => {
    const created = await insertUpload(trx, {
      organization_id: organizationId,
      created_by: user.id,
      kind: input.kind,
      name: input.file.name,
      content_type: input.file.type.toLowerCase(),
      size_limit: input.file.size,
      expiresAt: new Date(Date.now() + UPLOAD_URL_TTL_MS),
    });
    await recordUploadEvent(trx, ctx, 'storage.upload_created', created);
    return created;
  });
  return { row, signature: await uploadSignature(ctx.db, row.id, organizationId) };
}

/** Reads `stream` whole, refusing it (413) as soon as it passes `limit` bytes. */
async function readAtMost(stream: Readable, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) {
      // The connection closes after the answer: the rest of the body is never read.
      throw new ApiError(413, `the file ${name} is larger than its declared size of ${limit} bytes`, {
        connection: 'close',
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Receives the one PUT of upload `key`: 404 unknown, 403 when the signature is not this server's,
 * 410 once expired, 409 once used, 415 for another type than declared, 413 past the declared size.
 * The checks come before a byte is read.
 */
export async function receiveUpload(
  ctx: Omit<ServiceContext, 'actor'>,
  key: string,
  input: { signature: string | undefined; contentType: string | undefined; body: Readable },
): Promise<StorageUploadRow> {
  const row = await findUpload(ctx.db, key);
  if (!row) throw notFound(`upload ${key} not found`);
  if (!(await signatureMatches(ctx.db, row.id, row.organization_id, input.signature))) {
    throw forbidden('the upload URL signature is not valid');
  }
  if (row.uploaded_at) throw conflict(`upload ${key} was already sent; ask for a new upload URL`);
  if (Date.parse(row.expires_at) <= Date.now()) {
    throw new ApiError(410, `the upload URL expired at ${row.expires_at}; ask for a new one`);
  }
  const type = (input.contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== row.content_type) {
    throw new ApiError(
      415,
      `the upload's Content-Type must be ${row.content_type} (as declared), not ${type || 'absent'}`,
    );
  }
  const user = await findUser(ctx.db, row.created_by);
  if (!user) throw notFound(`upload ${key} not found`);
  await requireOrgMember(ctx.db, row.organization_id, user.id);
  const actor: Actor = { type: 'user', user, tokenId: null, source: 'api' };
  const bytes = await readAtMost(input.body, row.size_limit, row.name);
  // Content-addressed, so stored outside the transaction (unused bytes if the PUT loses the race).
  const blob = await putBlob(ctx.db, bytes, row.content_type, row.name);
  return inTransaction(ctx.db, async (trx) => {
    const done = await completeUpload(trx, row.id, blob);
    if (!done) throw conflict(`upload ${key} was already sent; ask for a new upload URL`);
    await recordUploadEvent(trx, { ...ctx, actor }, 'storage.upload_completed', done);
    return done;
  });
}
