/**
 * Organization-level policy. Who sees an organization: its members who are not guests and not
 * disabled; to everyone else it does not exist (404). Org admins change the organization, its
 * members and its teams; a team owner manages that team's membership.
 */

import { readsOrganization } from '../core/answer-scope.js';
import { invalidate, TtlCache } from '../core/cache.js';
import type { Db } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import { organizationScope } from '../db/write-scope.js';
import { forbidden, notFound } from '../lib/errors.js';
import type { Role } from '../lib/schemas.js';
import { atLeast, isRole } from './roles.js';

export interface OrgMembership {
  organizationId: string;
  userId: string;
  /** null for a guest. */
  role: Role | null;
  disabled: boolean;
}

/**
 * Memberships (and non-memberships) by organization and user, for 10 s: nearly every request
 * checks one. Every write to a member row calls {@link membershipChanged}, which drops it here at
 * once; other processes see the change when their entry expires (see core/cache.ts).
 */
const MEMBERSHIP_TTL_MS = 10_000;
const memberships = new TtlCache<OrgMembership | null>(MEMBERSHIP_TTL_MS);
/** The tag of one member row: cached values derived from it carry it. */
export const membershipTag = (organizationId: string, userId: string) => `member:${organizationId}:${userId}`;

/** Call with every change of a member row (added, removed, role, disabled), before and after it. */
export function membershipChanged(organizationId: string, userId: string): void {
  invalidate(membershipTag(organizationId, userId), membersOfTag(organizationId));
}

const membersOfTag = (organizationId: string) => `members-of:${organizationId}`;
const memberCounts = new TtlCache<number>(MEMBERSHIP_TTL_MS);

/**
 * The number of members of an organization (by role, or `all`), kept like memberships: counting
 * grows with the organization and every page of the member list shows the total.
 */
export async function cachedMemberCount(
  organizationId: string,
  role: string,
  count: () => Promise<number>,
): Promise<number> {
  const key = `${organizationId}:${role}`;
  const cached = memberCounts.get(key);
  if (cached !== undefined) return cached;
  const readAt = Date.now();
  const n = await count();
  memberCounts.set(key, n, [membersOfTag(organizationId), organizationScope(organizationId)], readAt);
  return n;
}

const memberRow = prepare((db, p: { organizationId: string; userId: string }) =>
  db
    .selectFrom('members')
    .select(['role', 'disabled'])
    .where('organization_id', '=', p.organizationId)
    .where('user_id', '=', p.userId),
);

export async function findMembership(db: Db, organizationId: string, userId: string): Promise<OrgMembership | null> {
  // Every read of an organization's data is authorized here: a cached answer depends on it.
  readsOrganization(organizationId);
  const tag = membershipTag(organizationId, userId);
  // Inside a transaction the row may be this transaction's own uncommitted change: never cached.
  if (!db.isTransaction) {
    const cached = memberships.get(tag);
    if (cached !== undefined) return cached;
  }
  const readAt = Date.now();
  const row = await memberRow.first(db, { organizationId, userId });
  const membership: OrgMembership | null = row
    ? Object.freeze({ organizationId, userId, role: isRole(row.role) ? row.role : null, disabled: row.disabled === 1 })
    : null;
  if (!db.isTransaction) memberships.set(tag, membership, [tag, organizationScope(organizationId)], readAt);
  return membership;
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

/**
 * The organization role that edits the organization's content settings (OpenAPI specifications,
 * translation settings); members below it read them.
 */
export const CONTENT_EDIT_ROLE: Role = 'create';

/** Whether the member edits the organization's content settings: their `permissions.edit`. */
export function canEdit(membership: OrgMembership): boolean {
  return atLeast(membership.role, CONTENT_EDIT_ROLE);
}

/** 403 unless the member edits the organization's content settings ({@link canEdit}). */
export function requireCanEdit(membership: OrgMembership, action: string): void {
  requireOrgRole(membership, CONTENT_EDIT_ROLE, action);
}

/** Webhooks (and their deliveries) are the organization admins': 404 unless a member, 403 unless an admin. */
export async function authorizeWebhooks(db: Db, organizationId: string, userId: string, action: string) {
  const membership = await requireOrgMember(db, organizationId, userId);
  requireOrgRole(membership, 'admin', action);
}
