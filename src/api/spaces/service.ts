/** Changes of spaces: create, update, soft-delete, restore, move. */
import type { Static } from 'typebox';
import { loadRevision, writeRevision } from '../../content/store.js';
import { placeItem, positionAtEnd, type TreePosition } from '../../content-tree/order.js';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { SpaceRow } from '../../db/schema.js';
import { declareOrganizationBaseWrite, declareSpaceWrite } from '../../db/write-scope.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { authorizeSpace, requireCreateIn } from '../../permissions/content.js';
import { loadViewer } from '../../permissions/resolver.js';
import { advanceLive } from '../../services/live.js';
import { siteNodesChanged } from '../../sites/node-cache.js';
import { presentSpace } from './present.js';
import * as repo from './repo.js';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';

/** A space as the API presents it to `role`, read in `trx` (the event's `data.object`). */
async function presented(trx: DbOrTrx, ctx: ServiceContext, spaceId: string, role: Role | null) {
  const { row: space, counts, gitSync } = (await repo.findSpaceToPresent(trx, spaceId)) as repo.SpaceToPresent;
  return { space, object: presentSpace(space, role, counts, ctx.urls, gitSync) };
}

/** Records `type` on the space as it is now (in `trx`), with the fields it changed when `before` is given. */
async function recordSpaceEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  spaceId: string,
  role: Role | null,
  before?: object,
  options: { sameExistence?: boolean } = {},
) {
  const { space, object } = await presented(trx, ctx, spaceId, role);
  // The change is the space's (its row): the rest of the organization's answers stay (db/scope-parts.ts).
  declareSpaceWrite(space.organization_id, space.id, options);
  await recordEvent(trx, ctx, {
    type,
    organizationId: space.organization_id,
    target: { object: 'space', id: space.id, label: space.title },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/** Creates a space at the end of its parent (or of the organization's top level). */
export async function createSpace(
  ctx: ServiceContext,
  organizationId: string,
  input: Static<typeof CreateSpaceBody>,
): Promise<SpaceRow> {
  const viewer = await loadViewer(ctx.db, organizationId, actingUser(ctx).id);
  await requireCreateIn(ctx.db, viewer, input.parent);
  if (input.visibility === 'in-collection' && !input.parent) {
    throw badRequest('body/visibility in-collection needs a parent collection');
  }
  return inTransaction(ctx.db, async (trx) => {
    const space = await repo.createSpace(trx, organizationId, input);
    await recordSpaceEvent(trx, ctx, 'space.created', space.id, viewer.roleOn({ type: 'space', ...space }));
    return space;
  });
}

export async function updateSpace(
  ctx: ServiceContext,
  spaceId: string,
  input: Static<typeof UpdateSpaceBody>,
): Promise<SpaceRow> {
  const { row, role } = await authorizeSpace(ctx.db, actingUser(ctx).id, spaceId, 'admin', 'update it');
  if (input.visibility === 'in-collection' && !row.parent_id) {
    throw badRequest('body/visibility in-collection needs the space to be in a collection');
  }
  await inTransaction(ctx.db, async (trx) => {
    const { object: before } = await presented(trx, ctx, row.id, role);
    await repo.updateSpace(trx, row.id, input);
    // Of a space's fields, the sites of its organization's members depend on its default level only.
    if (input.defaultLevel !== undefined) siteNodesChanged(trx, row.organization_id);
    // Who may read the space is the organization's base, held by its caches (db/scope-parts.ts).
    if (input.visibility !== undefined) declareOrganizationBaseWrite(row.organization_id);
    // An update changes fields, never whether the space exists.
    await recordSpaceEvent(trx, ctx, 'space.updated', row.id, role, before, { sameExistence: true });
  });
  return row;
}

/** Soft-deletes a space; deleting a deleted space changes nothing, as the official API documents. */
export async function deleteSpace(ctx: ServiceContext, spaceId: string): Promise<void> {
  const { row, role } = await authorizeSpace(ctx.db, actingUser(ctx).id, spaceId, 'admin', 'delete it', {
    includeDeleted: true,
  });
  if (row.deleted_at) return;
  await inTransaction(ctx.db, async (trx) => {
    await repo.setSpaceDeleted(trx, row.id, true);
    siteNodesChanged(trx, row.organization_id);
    await recordSpaceEvent(trx, ctx, 'space.deleted', row.id, role);
  });
}

/**
 * Restores a deleted space at the end of its parent; when the parent was deleted meanwhile, at the
 * organization's top level. Restoring a live space changes nothing.
 */
export async function restoreSpace(ctx: ServiceContext, spaceId: string): Promise<SpaceRow> {
  const { row, role } = await authorizeSpace(ctx.db, actingUser(ctx).id, spaceId, 'admin', 'restore it', {
    includeDeleted: true,
  });
  if (!row.deleted_at) return row;
  await inTransaction(ctx.db, async (trx) => {
    const parentId = row.parent_id ? await repo.findLiveParent(trx, row.parent_id) : null;
    const position = await positionAtEnd(trx, row.organization_id, parentId);
    await repo.restoreSpace(trx, row.id, parentId, position);
    siteNodesChanged(trx, row.organization_id);
    await recordSpaceEvent(trx, ctx, 'space.restored', row.id, role);
  });
  return row;
}

/**
 * Moves a space under another collection (or to the top level: an `in-collection` space becomes
 * private there) and/or before or after a sibling. A new parent takes the create role on it.
 */
export async function moveSpace(
  ctx: ServiceContext,
  spaceId: string,
  input: { parent?: string | null; position?: TreePosition },
): Promise<SpaceRow> {
  const { row, viewer, role } = await authorizeSpace(ctx.db, actingUser(ctx).id, spaceId, 'admin', 'move it');
  const parentId = input.parent === undefined ? row.parent_id : input.parent;
  if (parentId !== row.parent_id) await requireCreateIn(ctx.db, viewer, parentId);
  await inTransaction(ctx.db, async (trx) => {
    const { object: before } = await presented(trx, ctx, row.id, role);
    const visibility = !parentId && row.visibility === 'in-collection' ? 'private' : row.visibility;
    await repo.moveSpace(trx, row.id, parentId, visibility);
    siteNodesChanged(trx, row.organization_id);
    await placeItem(trx, row.organization_id, parentId, { type: 'space', id: row.id }, input.position);
    await recordSpaceEvent(trx, ctx, 'space.moved', row.id, role, before);
  });
  return row;
}

/**
 * A full copy of a space (`duplicateSpace`): a new space beside it (same collection, visibility, edit
 * mode, language), titled "<title> (copy)", whose live content is the source's live revision (pages,
 * files and reusable contents share their stored versions). No site placement: `duplicateSiteSpace`
 * does that. Needs read on the source and the create role where the copy goes.
 */
export async function duplicateSpace(ctx: ServiceContext, spaceId: string): Promise<SpaceRow> {
  const user = actingUser(ctx);
  const { row, viewer } = await authorizeSpace(ctx.db, user.id, spaceId, 'read', 'duplicate it');
  await requireCreateIn(ctx.db, viewer, row.parent_id);
  const source = await loadRevision(ctx.db, row, row.revision_id);
  if (!source) throw new Error(`live revision ${row.revision_id} of space ${row.id} is missing`);
  return inTransaction(ctx.db, async (trx) => {
    const copy = await repo.createSpace(trx, row.organization_id, {
      title: `${row.title.slice(0, 50 - ' (copy)'.length)} (copy)`,
      ...(row.emoji ? { emoji: row.emoji } : {}),
      ...(row.parent_id ? { parent: row.parent_id } : {}),
      visibility: row.visibility as Static<typeof CreateSpaceBody>['visibility'],
      editMode: row.edit_mode as Static<typeof CreateSpaceBody>['editMode'],
      ...(row.language ? { language: row.language as Static<typeof CreateSpaceBody>['language'] } : {}),
    });
    const written = await writeRevision(trx, {
      spaceId: copy.id,
      parents: [copy.revision_id],
      type: 'edits',
      pages: source.pages,
      files: source.files,
      reusableContents: source.reusableContents,
      createdBy: user.id,
    });
    await advanceLive(trx, copy.id, copy.revision_id, written.id, nowIso());
    siteNodesChanged(trx, row.organization_id);
    await recordSpaceEvent(trx, ctx, 'space.created', copy.id, viewer.roleOn({ type: 'space', ...copy }));
    return { ...copy, revision_id: written.id };
  });
}
