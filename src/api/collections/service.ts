/** Changes of collections: create, update, delete (with what lies below), move, transfer. */
import type { Static } from 'typebox';
import { placeItem, subtree, type TreePosition } from '../../content-tree/order.js';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { CollectionRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { accessChanged } from '../../permissions/access-cache.js';
import { authorizeCollection, requireCreateIn } from '../../permissions/content.js';
import { requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import { siteNodesChanged } from '../../sites/node-cache.js';
import { presentCollection } from './present.js';
import * as repo from './repo.js';
import type { CreateCollectionBody, UpdateCollectionBody } from './schemas.js';

/** A collection as the API presents it to `role`, read in `trx` (the event's `data.object`). */
async function presented(trx: DbOrTrx, ctx: ServiceContext, collectionId: string, role: Role | null) {
  const row = (await repo.findCollection(trx, collectionId)) as CollectionRow;
  return presentCollection(row, role, ctx.urls);
}

async function recordCollectionEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  object: ReturnType<typeof presentCollection>,
  before?: object,
  organizationId = object.organization,
) {
  await recordEvent(trx, ctx, {
    type,
    organizationId,
    target: { object: 'collection', id: object.id, label: object.title },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/** Creates a collection at the end of its parent (or of the organization's top level). */
export async function createCollection(
  ctx: ServiceContext,
  organizationId: string,
  input: Static<typeof CreateCollectionBody>,
): Promise<CollectionRow> {
  const viewer = await loadViewer(ctx.db, organizationId, actingUser(ctx).id);
  await requireCreateIn(ctx.db, viewer, input.parent);
  return inTransaction(ctx.db, async (trx) => {
    const row = await repo.createCollection(trx, organizationId, input);
    accessChanged(trx, organizationId);
    const role = viewer.roleOn({ type: 'collection', ...row });
    await recordCollectionEvent(trx, ctx, 'collection.created', presentCollection(row, role, ctx.urls));
    return row;
  });
}

export async function updateCollection(
  ctx: ServiceContext,
  collectionId: string,
  input: Static<typeof UpdateCollectionBody>,
): Promise<CollectionRow> {
  const { row, role } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'update it');
  await inTransaction(ctx.db, async (trx) => {
    const before = presentCollection(row, role, ctx.urls);
    await repo.updateCollection(trx, row.id, input);
    accessChanged(trx, row.organization_id);
    await recordCollectionEvent(trx, ctx, 'collection.updated', await presented(trx, ctx, row.id, role), before);
  });
  return row;
}

/** Deletes the collection and those below it; their spaces are soft-deleted. */
export async function deleteCollection(ctx: ServiceContext, collectionId: string): Promise<void> {
  const { row, role } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'delete it');
  await inTransaction(ctx.db, async (trx) => {
    await recordCollectionEvent(trx, ctx, 'collection.deleted', presentCollection(row, role, ctx.urls));
    const ids = subtree(await repo.listCollections(trx, row.organization_id), row.id);
    await repo.deleteCollectionTree(trx, ids);
    accessChanged(trx, row.organization_id);
    siteNodesChanged(trx, row.organization_id);
  });
}

/**
 * Moves a collection under another one (never under itself or its descendants; a new parent takes
 * the create role on it) and/or before or after a sibling.
 */
export async function moveCollection(
  ctx: ServiceContext,
  collectionId: string,
  input: { parent?: string | null; position?: TreePosition },
): Promise<CollectionRow> {
  const { row, viewer, role } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'move it');
  const parentId = input.parent === undefined ? row.parent_id : input.parent;
  if (parentId !== row.parent_id) {
    await requireCreateIn(ctx.db, viewer, parentId);
    const below = subtree(await repo.listCollections(ctx.db, row.organization_id), row.id);
    if (parentId && below.includes(parentId)) {
      throw badRequest('body/parent: a collection cannot move under itself or one of its descendants');
    }
  }
  await inTransaction(ctx.db, async (trx) => {
    await repo.setCollectionParent(trx, row.id, parentId);
    accessChanged(trx, row.organization_id);
    await placeItem(trx, row.organization_id, parentId, { type: 'collection', id: row.id }, input.position);
    const before = presentCollection(row, role, ctx.urls);
    await recordCollectionEvent(trx, ctx, 'collection.moved', await presented(trx, ctx, row.id, role), before);
  });
  return row;
}

/**
 * Moves the collection, with everything below it, to the top level of another organization; the
 * caller must be an admin of both.
 */
export async function transferCollection(
  ctx: ServiceContext,
  collectionId: string,
  targetOrganizationId: string,
): Promise<CollectionRow> {
  const user = actingUser(ctx);
  const { row, role } = await authorizeCollection(ctx.db, user.id, collectionId, 'admin', 'transfer it');
  const source = await loadViewer(ctx.db, row.organization_id, user.id);
  requireOrgRole(
    { organizationId: row.organization_id, userId: user.id, role: source.orgRole, disabled: false },
    'admin',
    'transfer collections out of it',
  );
  const targetMembership = await requireOrgMember(ctx.db, targetOrganizationId, user.id);
  requireOrgRole(targetMembership, 'admin', 'transfer collections into it');
  if (targetOrganizationId === row.organization_id)
    throw conflict('the collection already belongs to that organization');
  await inTransaction(ctx.db, async (trx) => {
    const ids = subtree(await repo.listCollections(trx, row.organization_id), row.id);
    await repo.transferCollectionTree(trx, row.id, ids, targetOrganizationId);
    accessChanged(trx, row.organization_id, targetOrganizationId);
    siteNodesChanged(trx, row.organization_id, targetOrganizationId);
    // Recorded in the organization it left (whose audit log must show where it went) and the one it joined.
    const before = presentCollection(row, role, ctx.urls);
    const after = await presented(trx, ctx, row.id, role);
    await recordCollectionEvent(trx, ctx, 'collection.moved', after, before, row.organization_id);
    await recordCollectionEvent(trx, ctx, 'collection.moved', after, before, targetOrganizationId);
  });
  return row;
}
