/**
 * Loads a change request for a caller: the space and the change request (by id or number within
 * that space) are read in one query (./lookup.ts), then the space is authorized (404 when the caller
 * cannot read it, 403 when their role is below `needed`) before a missing change request is a 404,
 * so a caller who cannot see the space learns nothing of its change requests. Also the rules every
 * change of a change request's content shares (the content area's edits and imports, the merge).
 */
import { loadRevision, type Snapshot } from '../../content/store.js';
import type { DbOrTrx } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { authorizeLoadedSpace } from '../../permissions/content.js';
import type { Viewer } from '../../permissions/resolver.js';
import { type ChangeRequestLoader, loadChangeRequest } from './lookup.js';

export interface ChangeRequestAccess<T extends ChangeRequestRow = ChangeRequestRow> {
  space: SpaceRow;
  changeRequest: T;
  role: Role;
  viewer: Viewer;
}

/** `load` reads the space and the change request (by default its row alone; reads load what they show). */
export async function authorizeChangeRequest<T extends ChangeRequestRow = ChangeRequestRow>(
  db: DbOrTrx,
  userId: string,
  spaceId: string,
  changeRequestKey: string,
  needed: Role,
  action: string,
  load: ChangeRequestLoader<T> = loadChangeRequest as ChangeRequestLoader<never>,
): Promise<ChangeRequestAccess<T>> {
  const found = await load(db, spaceId, changeRequestKey);
  const { row: space, role, viewer } = await authorizeLoadedSpace(db, userId, spaceId, found.space, needed, action);
  const { changeRequest } = found;
  if (!changeRequest) throw notFound(`change request ${changeRequestKey} not found in space ${space.id}`);
  return { space, changeRequest, role, viewer };
}

/** 409 unless the change request can still change (not merged, not archived). */
export function requireEditable(changeRequest: ChangeRequestRow): void {
  if (changeRequest.status === 'merged') throw conflict(`change request ${changeRequest.number} is already merged`);
  if (changeRequest.status === 'archived') {
    throw conflict(`change request ${changeRequest.number} is archived; reopen it (status open) to change it`);
  }
}

/** The change request's current revision (its content). */
export async function changeRequestSnapshot(
  db: DbOrTrx,
  space: SpaceRow,
  changeRequest: ChangeRequestRow,
): Promise<Snapshot> {
  const snapshot = await loadRevision(db, space, changeRequest.revision_id);
  if (!snapshot) {
    throw new Error(`revision ${changeRequest.revision_id} of change request ${changeRequest.id} is missing`);
  }
  return snapshot;
}
