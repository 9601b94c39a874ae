/**
 * Organization-level policy. Who sees an organization: its members who are not guests and not
 * disabled; to everyone else it does not exist (404). Org admins change the organization, its
 * members and its teams; a team owner manages that team's membership.
 */

import { forbidden, notFound } from '../core/errors.js';
import type { Role } from '../core/schemas.js';
import type { Db } from '../db/database.js';
import { atLeast, isRole } from './roles.js';

export interface OrgMembership {
  organizationId: string;
  userId: string;
  /** null for a guest. */
  role: Role | null;
  disabled: boolean;
}

export async function findMembership(db: Db, organizationId: string, userId: string): Promise<OrgMembership | null> {
  const row = await db
    .selectFrom('members')
    .select(['role', 'disabled'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return { organizationId, userId, role: isRole(row.role) ? row.role : null, disabled: row.disabled === 1 };
}

/** The caller's membership, or 404 when the organization is not visible to them. */
export async function requireOrgMember(db: Db, organizationId: string, userId: string): Promise<OrgMembership> {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership || membership.role === null || membership.disabled) {
    throw notFound(`organization ${organizationId} not found`);
  }
  return membership;
}

/** 403 unless the member's organization role is at least `needed`. */
export function requireOrgRole(membership: OrgMembership, needed: Role, action: string): void {
  if (!atLeast(membership.role, needed)) {
    throw forbidden(`you need the ${needed} role in the organization to ${action}`);
  }
}

export function isOrgAdmin(membership: OrgMembership): boolean {
  return membership.role === 'admin';
}

/** Whether the member may manage the membership of `teamId`: org admins and that team's owners. */
export async function canManageTeam(db: Db, membership: OrgMembership, teamId: string): Promise<boolean> {
  if (isOrgAdmin(membership)) return true;
  const row = await db
    .selectFrom('team_members')
    .select('role')
    .where('team_id', '=', teamId)
    .where('user_id', '=', membership.userId)
    .executeTakeFirst();
  return row?.role === 'owner';
}
