/**
 * Opens a change request for a caller: the space and the change request (by id or number within
 * that space) are read in one query (./lookup.ts), then authorized by src/permissions (the space
 * first, so a caller who cannot see it learns nothing of its change requests). Also the rules every
 * change of a change request's content shares (the content area's edits and imports, the merge).
 */
import { loadRevision, type Snapshot } from '../../content/store.js';
import type { DbOrTrx } from '../../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { conflict } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { type AuthorizedChangeRequest, authorizeLoadedChangeRequest } from '../../permissions/content.js';
import { type ChangeRequestLoader, loadChangeRequest } from './lookup.js';

export type ChangeRequestAccess<T extends ChangeRequestRow = ChangeRequestRow> = AuthorizedChangeRequest<T>;

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
  return authorizeLoadedChangeRequest(db, userId, spaceId, changeRequestKey, found, needed, action);
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
