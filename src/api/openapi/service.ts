/**
 * Every change of an organization's OpenAPI specifications: create, create-or-update by slug,
 * delete (members who edit the organization's content settings: `canEdit`, src/permissions), and
 * what the `openapi.process` job records (the system). Creating or changing a source queues its
 * processing in the same transaction; the caller wakes the worker.
 */
import type { Static } from 'typebox';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { OpenapiSpecRow, OpenapiSpecVersionRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { assertFetchableUrl, FetchError } from '../../lib/fetch.js';
import { canEdit, requireCanEdit, requireOrgMember } from '../../permissions/organization.js';
import type { LoadedSpec } from './load.js';
import { presentSpec, presentVersion } from './present.js';
import {
  createSpec,
  deleteSpec,
  findSpec,
  recordFailure,
  recordSuccess,
  startProcessing,
  updateSpecSource,
  updateSpecVisibility,
} from './repo.js';
import type { ProcessErrorCode, SpecSource } from './schemas.js';

type Source = Static<typeof SpecSource>;

/** Refuses a URL the worker would refuse anyway (scheme, private address), so the caller hears at once. */
async function checkSource(source: Source, allowPrivate: boolean): Promise<void> {
  if (!('url' in source)) return;
  try {
    await assertFetchableUrl(source.url, allowPrivate);
  } catch (error) {
    if (error instanceof FetchError) throw badRequest(`body/source/url: ${error.message}`);
    throw error;
  }
}

/**
 * Records a change of a specification by a member, with the specification as organization admins
 * (who read events, and may edit every specification) see it.
 */
async function recordSpecEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'openapi.spec.created' | 'openapi.spec.updated' | 'openapi.spec.deleted',
  spec: OpenapiSpecRow,
  before?: OpenapiSpecRow,
): Promise<void> {
  const object = presentSpec(spec, true, ctx.urls);
  await recordEvent(trx, ctx, {
    type,
    organizationId: spec.organization_id,
    target: { object: 'openapi-spec', id: spec.id, label: spec.slug },
    data: { object, ...(before ? { previous: previousValues(presentSpec(before, true, ctx.urls), object) } : {}) },
  });
}

/** A specification after a change, with the caller's `permissions.edit` on it. */
export interface ChangedSpec {
  spec: OpenapiSpecRow;
  canEdit: boolean;
}

async function editor(ctx: ServiceContext, organizationId: string, action: string): Promise<boolean> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireCanEdit(membership, action);
  return canEdit(membership);
}

/** A new specification (409 when the slug is taken in the organization). */
export async function createOpenApiSpec(
  ctx: ServiceContext,
  organizationId: string,
  input: { slug: string; source: Source },
  options: { allowPrivate: boolean },
): Promise<ChangedSpec> {
  const edit = await editor(ctx, organizationId, 'create OpenAPI specifications');
  await checkSource(input.source, options.allowPrivate);
  if (await findSpec(ctx.db, organizationId, input.slug)) {
    throw conflict(`an OpenAPI specification with the slug ${input.slug} already exists`);
  }
  const spec = await inTransaction(ctx.db, async (trx) => {
    const created = await createSpec(trx, organizationId, input.slug, input.source);
    await recordSpecEvent(trx, ctx, 'openapi.spec.created', created);
    return created;
  });
  return { spec, canEdit: edit };
}

/** Replaces the source of the specification `slug`, or creates it (`created`). */
export async function putOpenApiSpec(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  source: Source,
  options: { allowPrivate: boolean },
): Promise<ChangedSpec & { created: boolean }> {
  const edit = await editor(ctx, organizationId, 'change OpenAPI specifications');
  await checkSource(source, options.allowPrivate);
  const existing = await findSpec(ctx.db, organizationId, slug);
  return inTransaction(ctx.db, async (trx) => {
    if (existing) {
      const spec = await updateSpecSource(trx, existing.id, source);
      await recordSpecEvent(trx, ctx, 'openapi.spec.updated', spec, existing);
      return { spec, created: false, canEdit: edit };
    }
    const spec = await createSpec(trx, organizationId, slug, source);
    await recordSpecEvent(trx, ctx, 'openapi.spec.created', spec);
    return { spec, created: true, canEdit: edit };
  });
}

/** Sets the visibility of the specification `slug` (404 before 403, as for a deletion). */
export async function updateOpenApiSpecVisibility(
  ctx: ServiceContext,
  organizationId: string,
  slug: string,
  visibility: 'private' | 'public',
): Promise<ChangedSpec> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const existing = await findSpec(ctx.db, organizationId, slug);
  if (!existing) throw notFound(`OpenAPI specification ${slug} not found`);
  requireCanEdit(membership, 'change OpenAPI specifications');
  const spec = await inTransaction(ctx.db, async (trx) => {
    const updated = await updateSpecVisibility(trx, existing.id, visibility);
    await recordSpecEvent(trx, ctx, 'openapi.spec.updated', updated, existing);
    return updated;
  });
  return { spec, canEdit: canEdit(membership) };
}

/** Deletes the specification and its versions (404 before 403: a reader learns nothing more). */
export async function deleteOpenApiSpec(ctx: ServiceContext, organizationId: string, slug: string): Promise<void> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const spec = await findSpec(ctx.db, organizationId, slug);
  if (!spec) throw notFound(`OpenAPI specification ${slug} not found`);
  requireCanEdit(membership, 'delete OpenAPI specifications');
  await inTransaction(ctx.db, async (trx) => {
    await deleteSpec(trx, spec.id);
    await recordSpecEvent(trx, ctx, 'openapi.spec.deleted', spec);
  });
}

/** The job starts processing `revision` (the system); undefined when the spec was deleted or changed since. */
export function startSpecProcessing(
  ctx: ServiceContext,
  specId: string,
  revision: number,
): Promise<OpenapiSpecRow | undefined> {
  return inTransaction(ctx.db, (trx) => startProcessing(trx, specId, revision), {
    withoutEvent: 'startSpecProcessing',
  });
}

/**
 * The job records what it loaded (the system): a new version when the content changed, with its
 * `openapi.version.created` event.
 */
export function recordSpecProcessed(
  ctx: ServiceContext,
  spec: OpenapiSpecRow,
  revision: number,
  loaded: LoadedSpec,
): Promise<OpenapiSpecVersionRow | null> {
  return inTransaction(
    ctx.db,
    async (trx) => {
      const version = await recordSuccess(trx, spec, revision, loaded);
      if (version) {
        await recordEvent(trx, ctx, {
          type: 'openapi.version.created',
          organizationId: spec.organization_id,
          target: { object: 'openapi-spec-version', id: version.id, label: spec.slug },
          data: { object: presentVersion(spec, version, ctx.urls) },
        });
      }
      return version;
    },
    { withoutEvent: 'recordSpecProcessed' },
  );
}

/**
 * The job records why the source could not be processed (the system), with an
 * `openapi.processing.failed` event — only when this outcome was stored (not for an obsolete
 * revision), so once per failed processing of a source.
 */
export async function recordSpecFailed(
  ctx: ServiceContext,
  specId: string,
  revision: number,
  failure: { code: ProcessErrorCode; errors: string[]; errorCount: number },
): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const spec = await recordFailure(trx, specId, revision, failure);
    if (!spec) return;
    await recordEvent(trx, ctx, {
      type: 'openapi.processing.failed',
      organizationId: spec.organization_id,
      target: { object: 'openapi-spec', id: spec.id, label: spec.slug },
      // Events are read by organization admins, who may edit every specification.
      data: { object: presentSpec(spec, true, ctx.urls) },
    });
  });
}
