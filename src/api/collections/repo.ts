import type { ExpressionBuilder } from 'kysely';
import type { Static } from 'typebox';
import { positionAtEnd } from '../../content-tree/order.js';
import type { DbOrTrx } from '../../core/service.js';
import type { CollectionRow, Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { storeDefaultLevel } from '../../permissions/resolver.js';
import type { CreateCollectionBody, UpdateCollectionBody } from './schemas.js';

export async function findCollection(db: DbOrTrx, id: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listCollections(db: DbOrTrx, organizationId: string): Promise<CollectionRow[]> {
  return db.selectFrom('collections').selectAll().where('organization_id', '=', organizationId).execute();
}

export async function createCollection(
  db: DbOrTrx,
  organizationId: string,
  input: Static<typeof CreateCollectionBody>,
): Promise<CollectionRow> {
  const now = nowIso();
  const parentId = input.parent ?? null;
  const row: CollectionRow = {
    id: newId(),
    organization_id: organizationId,
    parent_id: parentId,
    title: input.title ?? 'Untitled',
    description: input.description ?? null,
    default_level: 'inherit',
    position: await positionAtEnd(db, organizationId, parentId),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('collections').values(row).execute();
  return row;
}

/** Moves a collection under `parentId` (ordering is `placeItem`'s). */
export async function setCollectionParent(db: DbOrTrx, id: string, parentId: string | null): Promise<void> {
  await db.updateTable('collections').set({ parent_id: parentId, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function updateCollection(
  db: DbOrTrx,
  id: string,
  body: Static<typeof UpdateCollectionBody>,
): Promise<void> {
  const patch: Partial<CollectionRow> = { updated_at: nowIso() };
  if (body.title !== undefined) patch.title = body.title;
  if (body.description !== undefined) patch.description = body.description;
  if (body.defaultLevel !== undefined) patch.default_level = storeDefaultLevel(body.defaultLevel);
  await db.updateTable('collections').set(patch).where('id', '=', id).execute();
}

/**
 * Deletes a collection and the collections below it; their spaces are soft-deleted (restorable,
 * coming back at the top level), and the grants on the deleted collections go with them.
 */
export async function deleteCollectionTree(db: DbOrTrx, ids: string[]): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('spaces')
    .set({ deleted_at: now, updated_at: now })
    .where('parent_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  await db
    .deleteFrom('content_permissions')
    .where('target_type', '=', 'collection')
    .where('target_id', 'in', ids)
    .execute();
  await db.deleteFrom('collections').where('id', 'in', ids).execute();
}

/**
 * Moves a collection subtree, with its spaces, to another organization at its top level. Grants to
 * teams (which belong to the old organization) and to users who are not members of the new one are
 * dropped.
 */
export async function transferCollectionTree(
  db: DbOrTrx,
  rootId: string,
  ids: string[],
  target: string,
): Promise<void> {
  const spaceIds = (await db.selectFrom('spaces').select('id').where('parent_id', 'in', ids).execute()).map(
    (s) => s.id,
  );
  const position = await positionAtEnd(db, target, null);
  await db.updateTable('collections').set({ organization_id: target }).where('id', 'in', ids).execute();
  await db
    .updateTable('collections')
    .set({ parent_id: null, position, updated_at: nowIso() })
    .where('id', '=', rootId)
    .execute();
  if (spaceIds.length > 0)
    await db.updateTable('spaces').set({ organization_id: target }).where('id', 'in', spaceIds).execute();
  const targets = (eb: ExpressionBuilder<Database, 'content_permissions'>) =>
    eb.or([
      eb.and([eb('target_type', '=', 'collection'), eb('target_id', 'in', ids)]),
      ...(spaceIds.length > 0 ? [eb.and([eb('target_type', '=', 'space'), eb('target_id', 'in', spaceIds)])] : []),
    ]);
  await db.deleteFrom('content_permissions').where(targets).where('principal_type', '=', 'team').execute();
  await db
    .deleteFrom('content_permissions')
    .where(targets)
    .where('principal_type', '=', 'user')
    .where('principal_id', 'not in', db.selectFrom('members').select('user_id').where('organization_id', '=', target))
    .execute();
  await db.updateTable('content_permissions').set({ organization_id: target }).where(targets).execute();
}
