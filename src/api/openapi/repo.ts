import { sql } from 'kysely';
import type { DbOrTrx } from '../../core/service.js';
import type { OpenapiSpecRow, OpenapiSpecVersionRow } from '../../db/schema.js';
import { enqueue } from '../../jobs/index.js';
import { newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import { nowIso } from '../../lib/time.js';
import type { LoadedSpec, SpecSourceInput } from './load.js';
import type { ProcessErrorCode } from './schemas.js';

/** The job that fetches, validates and stores a specification's source. */
export const PROCESS_JOB = 'openapi.process';
export interface ProcessPayload {
  specId: string;
  /** The `source_revision` the job was made for; a newer revision makes it obsolete. */
  revision: number;
}

function sourceColumns(source: SpecSourceInput) {
  return 'url' in source
    ? { source_url: source.url, source_text: null }
    : { source_url: null, source_text: source.text };
}

export async function findSpec(db: DbOrTrx, organizationId: string, slug: string): Promise<OpenapiSpecRow | undefined> {
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** Specifications sorted by slug (unique in the organization). */
export async function listSpecs(
  db: DbOrTrx,
  organizationId: string,
  paging: { page?: string; limit?: number },
): Promise<Page<OpenapiSpecRow>> {
  const q = db.selectFrom('openapi_specs').selectAll().where('openapi_specs.organization_id', '=', organizationId);
  return paginate(
    q,
    [
      { column: 'openapi_specs.slug', direction: 'asc', value: (r) => r.slug },
      { column: 'openapi_specs.id', direction: 'asc', value: (r) => r.id },
    ],
    paging,
  );
}

/** Creates a specification and the job that processes it (call it inside a transaction). */
export async function createSpec(
  db: DbOrTrx,
  organizationId: string,
  slug: string,
  source: SpecSourceInput,
): Promise<OpenapiSpecRow> {
  const now = nowIso();
  const spec: OpenapiSpecRow = {
    id: newId(),
    organization_id: organizationId,
    slug,
    ...sourceColumns(source),
    source_revision: 1,
    processing_state: 'pending',
    last_version_id: null,
    last_processed_at: null,
    last_process_error_code: null,
    last_process_errors: null,
    last_process_error_count: 0,
    visibility: 'private',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('openapi_specs').values(spec).execute();
  await enqueue(db, PROCESS_JOB, { specId: spec.id, revision: 1 } satisfies ProcessPayload);
  return spec;
}

/** Sets the visibility (inside a transaction); returns the specification as it now is. */
export async function updateSpecVisibility(db: DbOrTrx, specId: string, visibility: string): Promise<OpenapiSpecRow> {
  return db
    .updateTable('openapi_specs')
    .set({ visibility, updated_at: nowIso() })
    .where('id', '=', specId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces the source (a new revision, processing pending) and queues its processing (inside a transaction). */
export async function updateSpecSource(db: DbOrTrx, specId: string, source: SpecSourceInput): Promise<OpenapiSpecRow> {
  const spec = await db
    .updateTable('openapi_specs')
    .set({
      ...sourceColumns(source),
      source_revision: sql<number>`source_revision + 1`,
      processing_state: 'pending',
      updated_at: nowIso(),
    })
    .where('id', '=', specId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await enqueue(db, PROCESS_JOB, { specId, revision: spec.source_revision } satisfies ProcessPayload);
  return spec;
}

/** Deletes a specification and its versions (inside a transaction). */
export async function deleteSpec(db: DbOrTrx, specId: string): Promise<void> {
  await db.deleteFrom('openapi_spec_versions').where('spec_id', '=', specId).execute();
  await db.deleteFrom('openapi_specs').where('id', '=', specId).execute();
}

/** Versions, newest first. */
export async function listVersions(
  db: DbOrTrx,
  specId: string,
  paging: { page?: string; limit?: number },
): Promise<Page<OpenapiSpecVersionRow>> {
  const q = db.selectFrom('openapi_spec_versions').selectAll().where('openapi_spec_versions.spec_id', '=', specId);
  return paginate(
    q,
    [{ column: 'openapi_spec_versions.number', direction: 'desc', value: (r) => r.number, kind: 'number' }],
    paging,
  );
}

export async function findVersion(
  db: DbOrTrx,
  specId: string,
  versionId: string,
): Promise<OpenapiSpecVersionRow | undefined> {
  return db
    .selectFrom('openapi_spec_versions')
    .selectAll()
    .where('spec_id', '=', specId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}

// --- Processing (called by the job) ------------------------------------------------------------

/**
 * Marks the specification as being processed for `revision`; undefined when it was deleted, its
 * source changed since (a newer job will handle that), or this revision's outcome is already
 * recorded: a job retried after its worker died between recording the outcome and being marked
 * done must not record it (and its event) a second time.
 */
export async function startProcessing(
  db: DbOrTrx,
  specId: string,
  revision: number,
): Promise<OpenapiSpecRow | undefined> {
  return db
    .updateTable('openapi_specs')
    .set({ processing_state: 'progress' })
    .where('id', '=', specId)
    .where('source_revision', '=', revision)
    .where('processing_state', '!=', 'complete')
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records a successful processing of `revision`: a new version when the content differs from the
 * latest one (inside a transaction). Returns the new version, or null when nothing new was stored
 * (same content, or the source changed meanwhile and this result is obsolete).
 */
export async function recordSuccess(
  db: DbOrTrx,
  spec: OpenapiSpecRow,
  revision: number,
  loaded: LoadedSpec,
): Promise<OpenapiSpecVersionRow | null> {
  const now = nowIso();
  const current = await db
    .updateTable('openapi_specs')
    .set({
      processing_state: 'complete',
      last_processed_at: now,
      last_process_error_code: null,
      last_process_errors: null,
      last_process_error_count: 0,
    })
    .where('id', '=', spec.id)
    .where('source_revision', '=', revision)
    .returning('id')
    .executeTakeFirst();
  if (!current) return null;
  const last = await db
    .selectFrom('openapi_spec_versions')
    .select(['number', 'content_hash'])
    .where('spec_id', '=', spec.id)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last?.content_hash === loaded.hash) return null;
  const version: OpenapiSpecVersionRow = {
    id: newId(),
    spec_id: spec.id,
    number: (last?.number ?? 0) + 1,
    url: spec.source_url,
    filesystem: JSON.stringify(loaded.filesystem),
    content_hash: loaded.hash,
    raw_text: loaded.raw.text,
    raw_format: loaded.raw.format,
    created_at: now,
  };
  await db.insertInto('openapi_spec_versions').values(version).execute();
  await db
    .updateTable('openapi_specs')
    .set({ last_version_id: version.id, updated_at: now })
    .where('id', '=', spec.id)
    .execute();
  return version;
}

/**
 * Records a failed processing of `revision`; the last good version stays the latest. Returns the
 * specification as it now is, or undefined when nothing changed (the source changed meanwhile and
 * this result is obsolete).
 */
export async function recordFailure(
  db: DbOrTrx,
  specId: string,
  revision: number,
  failure: { code: ProcessErrorCode; errors: string[]; errorCount: number },
): Promise<OpenapiSpecRow | undefined> {
  return db
    .updateTable('openapi_specs')
    .set({
      processing_state: 'complete',
      last_processed_at: nowIso(),
      last_process_error_code: failure.code,
      last_process_errors: JSON.stringify(failure.errors.map((message) => ({ message }))),
      last_process_error_count: failure.errorCount,
    })
    .where('id', '=', specId)
    .where('source_revision', '=', revision)
    .returningAll()
    .executeTakeFirst();
}
