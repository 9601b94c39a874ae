/**
 * Loading a revision of a space for the revision history: the snapshot (content/store.ts), the Git
 * commit it was exported to or imported from, its parent, and the change request a merge came from.
 */
import { loadRevision, type Snapshot } from '../../content/store.js';
import type { Db } from '../../db/database.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { findRevisionGit, type RevisionGit } from '../../git/state.js';
import { findChangeRequest } from '../change-requests/repo.js';

/** A revision of `space` (undefined when the id names no revision of this space). */
export function findRevision(db: Db, space: SpaceRow, revisionId: string): Promise<Snapshot | undefined> {
  return loadRevision(db, space, revisionId);
}

/** What Git Sync recorded for the revision, only when the caller wants the mutable metadata. */
export async function revisionGit(db: Db, snapshot: Snapshot, metadata: boolean): Promise<RevisionGit | undefined> {
  return metadata ? findRevisionGit(db, snapshot.id) : undefined;
}

/**
 * The revision a revision's changes are counted from: its first parent (for a merge, the live
 * revision it was merged into). A first revision, or one whose parent is gone, counts from nothing.
 */
export async function findParent(db: Db, space: SpaceRow, snapshot: Snapshot): Promise<Snapshot | undefined> {
  const [first] = snapshot.parents;
  return first ? loadRevision(db, space, first) : undefined;
}

/** The change request a merge revision came from. */
export async function findMergedFrom(db: Db, snapshot: Snapshot): Promise<ChangeRequestRow | undefined> {
  return snapshot.mergedFrom ? findChangeRequest(db, snapshot.spaceId, snapshot.mergedFrom) : undefined;
}
