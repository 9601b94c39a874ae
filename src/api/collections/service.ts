/** Changes of collections: create, update, delete (with what lies below), move, transfer. */
import type { Static } from 'typebox';
import { placeItem, subtree, type TreePosition } from '../../content-tree/order.js';
import { badRequest, conflict } from '../../core/errors.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { CollectionRow } from '../../db/schema.js';
import { authorizeCollection, requireCreateIn } from '../../permissions/content.js';
import { requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { loadViewer } from '../../permissions/resolver.js';
import * as repo from './repo.js';
import type { CreateCollectionBody, UpdateCollectionBody } from './schemas.js';

/** Creates a collection at the end of its parent (or of the organization's top level). */
export async function createCollection(
  ctx: ServiceContext,
  organizationId: string,
  input: Static<typeof CreateCollectionBody>,
): Promise<CollectionRow> {
  const viewer = await loadViewer(ctx.db, organizationId, actingUser(ctx).id);
  await requireCreateIn(ctx.db, viewer, input.parent);
  return inTransaction(ctx.db, (trx) => repo.createCollection(trx, organizationId, input));
}

export async function updateCollection(
  ctx: ServiceContext,
  collectionId: string,
  input: Static<typeof UpdateCollectionBody>,
): Promise<CollectionRow> {
  const { row } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'update it');
  await inTransaction(ctx.db, (trx) => repo.updateCollection(trx, row.id, input));
  return row;
}

/** Deletes the collection and those below it; their spaces are soft-deleted. */
export async function deleteCollection(ctx: ServiceContext, collectionId: string): Promise<void> {
  const { row } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'delete it');
  await inTransaction(ctx.db, async (trx) => {
    const ids = subtree(await repo.listCollections(trx, row.organization_id), row.id);
    await repo.deleteCollectionTree(trx, ids);
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
  const { row, viewer } = await authorizeCollection(ctx.db, actingUser(ctx).id, collectionId, 'admin', 'move it');
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
    await placeItem(trx, row.organization_id, parentId, { type: 'collection', id: row.id }, input.position);
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
  const { row } = await authorizeCollection(ctx.db, user.id, collectionId, 'admin', 'transfer it');
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
  });
  return row;
}
