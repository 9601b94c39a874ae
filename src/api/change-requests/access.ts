/**
 * Loads a change request for a caller: the space is authorized first (404 when the caller cannot
 * read it, 403 when their role is below `needed`), then the change request is looked up by id or
 * number within that space (404 otherwise).
 */
import type { FastifyRequest } from 'fastify';
import { caller } from '../../core/auth.js';
import { notFound } from '../../core/errors.js';
import type { Role } from '../../core/schemas.js';
import type { Db } from '../../db/database.js';
import type { ChangeRequestRow, SpaceRow } from '../../db/schema.js';
import { authorizeSpace } from '../../permissions/content.js';
import type { Viewer } from '../../permissions/resolver.js';
import { findChangeRequest } from './repo.js';

export interface ChangeRequestAccess {
  space: SpaceRow;
  changeRequest: ChangeRequestRow;
  role: Role;
  viewer: Viewer;
}

export async function authorizeChangeRequest(
  db: Db,
  userId: string,
  spaceId: string,
  changeRequestKey: string,
  needed: Role,
  action: string,
): Promise<ChangeRequestAccess> {
  const { row: space, role, viewer } = await authorizeSpace(db, userId, spaceId, needed, action);
  const changeRequest = await findChangeRequest(db, space.id, changeRequestKey);
  if (!changeRequest) throw notFound(`change request ${changeRequestKey} not found in space ${space.id}`);
  return { space, changeRequest, role, viewer };
}

/** {@link authorizeChangeRequest} for the `spaceId` and `changeRequestId` path parameters of `request`. */
export function authorizeChangeRequestOf(db: Db, request: FastifyRequest, needed: Role, action: string) {
  const { spaceId, changeRequestId } = request.params as { spaceId: string; changeRequestId: string };
  return authorizeChangeRequest(db, caller(request).user.id, spaceId, changeRequestId, needed, action);
}
