/**
 * Changes of teams and their membership. Org admins create, rename and delete teams; org admins and
 * the team's owners manage its members. Members are named by user id or e-mail address.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { TeamRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { TeamRole } from '../../lib/schemas.js';
import { accessChanged } from '../../permissions/access-cache.js';
import { canManageTeam, type OrgMembership, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { findMembersByKeys } from '../members/repo.js';
import { presentTeam } from './present.js';
import * as repo from './repo.js';

/** Resolves user ids or e-mails to organization members; 400 naming the first unknown one. */
async function resolveMemberKeys(db: DbOrTrx, organizationId: string, keys: string[], field: string) {
  const members = await findMembersByKeys(db, organizationId, keys);
  const byKey = new Map<string, string>();
  for (const m of members) {
    byKey.set(m.user_id, m.user_id);
    byKey.set(m.email, m.user_id);
  }
  return keys.map((key) => {
    const userId = byKey.get(key) ?? byKey.get(key.toLowerCase());
    if (!userId) throw badRequest(`${field}: "${key}" is not a member of the organization`);
    return userId;
  });
}

async function loadTeam(db: DbOrTrx, organizationId: string, teamId: string): Promise<TeamRow> {
  const team = await repo.findTeam(db, organizationId, teamId);
  if (!team) throw notFound(`team ${teamId} not found`);
  return team;
}

/** A team as the API presents it to someone who manages it (the event's `data.object`), read in `trx`. */
async function presented(trx: DbOrTrx, team: TeamRow) {
  const counts = (await repo.teamCounts(trx, [team.id])).get(team.id) ?? { members: 0, spaces: 0 };
  return presentTeam(team, counts, true);
}

async function recordTeamEvent(trx: DbOrTrx, ctx: ServiceContext, type: EventType, team: TeamRow, before?: object) {
  const object = await presented(trx, team);
  await recordEvent(trx, ctx, {
    type,
    organizationId: team.organization_id,
    target: { object: 'team', id: team.id, label: team.title },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/** The caller's membership, when they are an org member (404 otherwise) and manage the team (403). */
async function requireTeamManager(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
): Promise<{ membership: OrgMembership; team: TeamRow }> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const team = await loadTeam(ctx.db, organizationId, teamId);
  if (!(await canManageTeam(ctx.db, membership, teamId))) {
    throw forbidden('only organization admins and owners of the team can manage its members');
  }
  return { membership, team };
}

export async function createTeam(
  ctx: ServiceContext,
  organizationId: string,
  input: { title: string; members?: string[] },
): Promise<TeamRow> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireOrgRole(membership, 'admin', 'create teams');
  return inTransaction(ctx.db, async (trx) => {
    const memberIds = await resolveMemberKeys(trx, organizationId, input.members ?? [], 'body/members');
    const team = await repo.createTeam(trx, organizationId, input.title, memberIds);
    accessChanged(trx, organizationId);
    await recordTeamEvent(trx, ctx, 'team.created', team);
    return team;
  });
}

export async function renameTeam(ctx: ServiceContext, organizationId: string, teamId: string, title: string) {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const team = await loadTeam(ctx.db, organizationId, teamId);
  requireOrgRole(membership, 'admin', 'rename teams');
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, team);
    await repo.renameTeam(trx, teamId, title);
    await recordTeamEvent(trx, ctx, 'team.updated', { ...team, title }, before);
  });
}

/** Deletes the team, its memberships and its grants. */
export async function deleteTeam(ctx: ServiceContext, organizationId: string, teamId: string): Promise<void> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const team = await loadTeam(ctx.db, organizationId, teamId);
  requireOrgRole(membership, 'admin', 'delete teams');
  await inTransaction(ctx.db, async (trx) => {
    // Recorded first: the event shows the team as it was, counts included.
    await recordTeamEvent(trx, ctx, 'team.deleted', team);
    await repo.deleteTeam(trx, teamId);
    accessChanged(trx, organizationId);
  });
}

/** Adds, removes and changes the role of several members at once; a user both added and removed ends up removed. */
export async function updateTeamMembers(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  input: { add?: string[]; remove?: string[]; memberships?: Record<string, { role?: TeamRole } | undefined> },
): Promise<void> {
  const { team } = await requireTeamManager(ctx, organizationId, teamId);
  const { add = [], remove = [], memberships = {} } = input;
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, team);
    const toAdd = await resolveMemberKeys(trx, organizationId, add, 'body/add');
    const toRemove = new Set(await resolveMemberKeys(trx, organizationId, remove, 'body/remove'));
    const roleKeys = Object.keys(memberships);
    const roleIds = await resolveMemberKeys(trx, organizationId, roleKeys, 'body/memberships');
    const upsert = new Map<string, TeamRole | undefined>(toAdd.map((id) => [id, undefined]));
    for (const [i, id] of roleIds.entries()) upsert.set(id, memberships[roleKeys[i] as string]?.role);
    for (const id of toRemove) upsert.delete(id);
    await repo.applyTeamMembership(trx, teamId, { upsert, remove: toRemove });
    accessChanged(trx, organizationId);
    await recordTeamEvent(trx, ctx, 'team.members.updated', team, before);
  });
}

/** Adds a member to the team with `role` (or sets the role of one already in it). */
export async function addTeamMember(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  userKey: string,
  role: TeamRole,
): Promise<void> {
  const { team } = await requireTeamManager(ctx, organizationId, teamId);
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, team);
    const [memberId] = await resolveMemberKeys(trx, organizationId, [userKey], 'params/userId');
    await repo.applyTeamMembership(trx, teamId, { upsert: new Map([[memberId as string, role]]), remove: new Set() });
    accessChanged(trx, organizationId);
    await recordTeamEvent(trx, ctx, 'team.members.updated', team, before);
  });
}

/** Removes a member from the team (404 when not in it). */
export async function removeTeamMember(
  ctx: ServiceContext,
  organizationId: string,
  teamId: string,
  userId: string,
): Promise<void> {
  const { team } = await requireTeamManager(ctx, organizationId, teamId);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await repo.findTeamMembership(trx, teamId, userId))) {
      throw notFound(`user ${userId} is not a member of team ${teamId}`);
    }
    const before = await presented(trx, team);
    await repo.applyTeamMembership(trx, teamId, { upsert: new Map(), remove: new Set([userId]) });
    accessChanged(trx, organizationId);
    await recordTeamEvent(trx, ctx, 'team.members.updated', team, before);
  });
}
