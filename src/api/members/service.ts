/**
 * Changes of an organization's membership: roles, removal (anyone may leave; removing someone else
 * takes an admin), SSO, invites. The organization always keeps an enabled admin.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { membershipChanged, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { findOrganization } from '../organizations/repo.js';
import { findOrCreateUser } from '../users/repo.js';
import { presentMember } from './present.js';
import * as repo from './repo.js';

async function loadMember(db: DbOrTrx, organizationId: string, userId: string) {
  const member = await repo.findMember(db, organizationId, userId);
  if (!member) throw notFound(`member ${userId} not found in organization ${organizationId}`);
  return member;
}

/** A member as the API presents it (the event's `data.object`), read in `trx`. */
async function presented(trx: DbOrTrx, ctx: ServiceContext, organizationId: string, userId: string) {
  const record = await loadMember(trx, organizationId, userId);
  const counts = (await repo.memberCounts(trx, organizationId, [userId])).get(userId);
  return presentMember(record, counts ?? { teams: 0, spaces: 0, sites: 0 }, ctx.urls);
}

async function recordMemberEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  organizationId: string,
  object: ReturnType<typeof presentMember>,
  before?: object,
) {
  await recordEvent(trx, ctx, {
    type,
    organizationId,
    target: { object: 'member', id: object.id, label: object.user.displayName },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/** Refuses a change that would leave the organization without an enabled admin. */
async function keepAnAdmin(
  db: DbOrTrx,
  organizationId: string,
  current: { role: string | null },
  next: Role | null | 'removed',
) {
  if (current.role !== 'admin' || next === 'admin') return;
  if ((await repo.countAdmins(db, organizationId)) <= 1) {
    throw conflict('the organization must keep at least one admin');
  }
}

/** Changes a member's role (null: guest); an absent role changes nothing but still checks the member. */
export async function updateMember(
  ctx: ServiceContext,
  organizationId: string,
  userId: string,
  input: { role?: Role | null },
): Promise<void> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireOrgRole(membership, 'admin', 'change member roles');
  membershipChanged(organizationId, userId);
  await inTransaction(ctx.db, async (trx) => {
    const member = await loadMember(trx, organizationId, userId);
    if (input.role === undefined || input.role === member.role) return;
    await keepAnAdmin(trx, organizationId, member, input.role);
    const before = await presented(trx, ctx, organizationId, userId);
    await repo.setMemberRole(trx, organizationId, userId, input.role);
    const after = await presented(trx, ctx, organizationId, userId);
    await recordMemberEvent(trx, ctx, 'member.updated', organizationId, after, before);
  });
  // Again once committed: the cached membership (permissions/organization.ts) goes at once.
  membershipChanged(organizationId, userId);
}

/** Removes a member and their memberships of the organization's teams. */
export async function removeMember(ctx: ServiceContext, organizationId: string, userId: string): Promise<void> {
  const me = actingUser(ctx).id;
  const membership = await requireOrgMember(ctx.db, organizationId, me);
  if (userId !== me) requireOrgRole(membership, 'admin', 'remove members');
  membershipChanged(organizationId, userId);
  await inTransaction(ctx.db, async (trx) => {
    const member = await loadMember(trx, organizationId, userId);
    await keepAnAdmin(trx, organizationId, member, 'removed');
    const before = await presented(trx, ctx, organizationId, userId);
    await repo.removeMember(trx, organizationId, userId);
    await recordMemberEvent(trx, ctx, 'member.removed', organizationId, before);
  });
  membershipChanged(organizationId, userId);
}

export async function setSsoMember(ctx: ServiceContext, organizationId: string, userId: string): Promise<void> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireOrgRole(membership, 'admin', 'set SSO members');
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, ctx, organizationId, userId);
    if (before.sso) return;
    await repo.setMemberSso(trx, organizationId, userId);
    const after = await presented(trx, ctx, organizationId, userId);
    await recordMemberEvent(trx, ctx, 'member.updated', organizationId, after, before);
  });
}

/**
 * Adds each address as a member (creating its user when new) with its own role, else the body's,
 * else the organization's default; the ids of the users who were not members yet.
 */
export async function inviteMembers(
  ctx: ServiceContext,
  organizationId: string,
  input: { emails: Array<string | { email: string; role: Role | null }>; role?: Role | null; sso?: boolean },
): Promise<string[]> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireOrgRole(membership, 'admin', 'invite members');
  const added = await inTransaction(ctx.db, async (trx) => {
    const org = await findOrganization(trx, organizationId);
    if (!org) throw notFound(`organization ${organizationId} not found`);
    const fallbackRole = (input.role !== undefined ? input.role : org.default_role) as Role | null;
    const seen = new Set<string>();
    const users: string[] = [];
    for (const entry of input.emails) {
      const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
      if (seen.has(email)) throw badRequest(`body/emails lists ${email} more than once`);
      seen.add(email);
      const role = typeof entry === 'string' ? fallbackRole : entry.role;
      const user = await findOrCreateUser(trx, email);
      if (await repo.addMember(trx, organizationId, user.id, role, input.sso === true)) users.push(user.id);
    }
    for (const userId of users) {
      await recordMemberEvent(
        trx,
        ctx,
        'member.added',
        organizationId,
        await presented(trx, ctx, organizationId, userId),
      );
    }
    return users;
  });
  // A cached "not a member" of the new members goes once they are committed.
  for (const userId of added) membershipChanged(organizationId, userId);
  return added;
}
