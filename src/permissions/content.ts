/**
 * Authorization of spaces and collections, called the same way by every route that touches them:
 * load the node, resolve the caller's role with the resolver, then 404 when they cannot read it
 * (never revealing it exists) or 403 when they can read but not do `action`.
 * The `permissions` flags in responses come from the same roles ({@link spaceFlags},
 * {@link collectionFlags}), so what a client sees is what the server enforces.
 */

import type { Db } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { ChangeRequestRow, CollectionRow, SpaceRow } from '../db/schema.js';
import { forbidden, notFound } from '../lib/errors.js';
import type { Role } from '../lib/schemas.js';
import { loadViewer, type NodeType, type Viewer } from './resolver.js';
import { atLeast } from './roles.js';

export interface Authorized<T> {
  row: T;
  viewer: Viewer;
  role: Role;
}

function check(role: Role | null, needed: Role, what: string, action: string): Role {
  if (!atLeast(role, 'read')) throw notFound(`${what} not found`);
  if (!atLeast(role, needed)) throw forbidden(`you need the ${needed} role on this ${what.split(' ')[0]} to ${action}`);
  return role as Role;
}

// Read by nearly every request on a space or collection: compiled once (db/prepared.ts).
const spaceById = prepare((db, p: { id: string }) => db.selectFrom('spaces').selectAll().where('id', '=', p.id));
const collectionById = prepare((db, p: { id: string }) =>
  db.selectFrom('collections').selectAll().where('id', '=', p.id),
);

/** The space if the caller has at least `needed` on it (deleted spaces only with `includeDeleted`). */
export async function authorizeSpace(
  db: Db,
  userId: string,
  spaceId: string,
  needed: Role,
  action: string,
  options: { includeDeleted?: boolean } = {},
): Promise<Authorized<SpaceRow>> {
  const row = await spaceById.first(db, { id: spaceId });
  return authorizeLoadedSpace(db, userId, spaceId, row, needed, action, options);
}

/**
 * {@link authorizeSpace} of a space row the caller already read (undefined: there is none), for
 * reads that load the space with what they show in one query.
 */
export async function authorizeLoadedSpace<T extends SpaceRow>(
  db: Db,
  userId: string,
  spaceId: string,
  row: T | undefined,
  needed: Role,
  action: string,
  options: { includeDeleted?: boolean } = {},
): Promise<Authorized<T>> {
  if (!row || (row.deleted_at && !options.includeDeleted)) throw notFound(`space ${spaceId} not found`);
  const viewer = await loadViewer(db, row.organization_id, userId);
  const role = check(viewer.roleOn({ type: 'space', ...row }), needed, `space ${spaceId}`, action);
  return { row, viewer, role };
}

/** The collection if the caller has at least `needed` on it. */
export async function authorizeCollection(
  db: Db,
  userId: string,
  collectionId: string,
  needed: Role,
  action: string,
): Promise<Authorized<CollectionRow>> {
  const row = await collectionById.first(db, { id: collectionId });
  if (!row) throw notFound(`collection ${collectionId} not found`);
  const viewer = await loadViewer(db, row.organization_id, userId);
  const role = check(viewer.roleOn({ type: 'collection', ...row }), needed, `collection ${collectionId}`, action);
  return { row, viewer, role };
}

/**
 * Creating inside `parentId` takes create on that collection; at the top level, the organization
 * role create or higher. A parent the caller cannot read (or of another organization) is a 404.
 */
export async function requireCreateIn(db: Db, viewer: Viewer, parentId: string | null | undefined): Promise<void> {
  if (!parentId) {
    if (!viewer.isMember || viewer.orgRole === null) throw notFound(`organization ${viewer.organizationId} not found`);
    if (!atLeast(viewer.orgRole, 'create')) {
      throw forbidden('you need the create role in the organization to create content at the top level');
    }
    return;
  }
  const parent = await db
    .selectFrom('collections')
    .select('id')
    .where('id', '=', parentId)
    .where('organization_id', '=', viewer.organizationId)
    .executeTakeFirst();
  const role = parent ? viewer.roleOnCollection(parentId) : null;
  check(role, 'create', `collection ${parentId}`, 'create content in it');
}

/** Space `permissions` flags for a role. */
export function spaceFlags(role: Role | null) {
  const edit = atLeast(role, 'edit');
  const admin = atLeast(role, 'admin');
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin,
    viewInviteLinks: admin,
    edit,
    triggerGitSync: edit,
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: admin,
  };
}

/** Collection `permissions` flags for a role. */
export function collectionFlags(role: Role | null) {
  const admin = atLeast(role, 'admin');
  return { view: atLeast(role, 'read'), admin, viewInviteLinks: admin, create: atLeast(role, 'create') };
}

/** A space or a collection, as a request names it. */
export interface NodeRef {
  type: NodeType;
  id: string;
}

/** A space or a collection a caller was authorized on, with its organization. */
export interface NodeTarget {
  type: NodeType;
  id: string;
  organizationId: string;
}

/** The space or collection if the user has at least `needed` on it (404/403 otherwise), and that role. */
export async function authorizeNode(
  db: Db,
  userId: string,
  node: NodeRef,
  needed: Role,
  action: string,
): Promise<{ target: NodeTarget; role: Role }> {
  const { row, role } =
    node.type === 'space'
      ? await authorizeSpace(db, userId, node.id, needed, action)
      : await authorizeCollection(db, userId, node.id, needed, action);
  return { target: { type: node.type, id: row.id, organizationId: row.organization_id }, role };
}

/** A change request the caller may act on, with its space, the caller's role and viewer. */
export interface AuthorizedChangeRequest<T extends ChangeRequestRow = ChangeRequestRow> {
  space: SpaceRow;
  changeRequest: T;
  role: Role;
  viewer: Viewer;
}

/**
 * A change request as it was read with its space (either undefined when missing): the space is
 * authorized first (404 when the caller cannot read it, 403 below `needed`), and only then is a
 * missing change request a 404, so a caller who cannot see the space learns nothing of its change
 * requests.
 */
export async function authorizeLoadedChangeRequest<T extends ChangeRequestRow>(
  db: Db,
  userId: string,
  spaceId: string,
  changeRequestKey: string,
  found: { space: SpaceRow | undefined; changeRequest: T | undefined },
  needed: Role,
  action: string,
): Promise<AuthorizedChangeRequest<T>> {
  const { row: space, role, viewer } = await authorizeLoadedSpace(db, userId, spaceId, found.space, needed, action);
  const { changeRequest } = found;
  if (!changeRequest) throw notFound(`change request ${changeRequestKey} not found in space ${space.id}`);
  return { space, changeRequest, role, viewer };
}
