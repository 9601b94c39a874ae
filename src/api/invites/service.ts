/**
 * Invite links of an organization, and joining one: with a link (its secret is the invite's id), or
 * by the caller's e-mail domain (`joinOrganization`). Org admins manage the links; anyone signed in
 * who holds a link may join with it while it is valid (not expired, not used up, invite links
 * turned on in the organization).
 */
import { decryptSecret, encryptSecret } from '../../core/secrets.js';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import type { InviteLinkRow, OrganizationRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { findMembership, membershipChanged, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { rank } from '../../permissions/roles.js';
import { findCollection } from '../collections/repo.js';
import { findGrant } from '../grants/repo.js';
import { raiseUserGrant } from '../grants/service.js';
import { presentMember } from '../members/present.js';
import { addMember, findMember, memberCounts, setMemberRole } from '../members/repo.js';
import { findOrganization } from '../organizations/repo.js';
import { findSpace } from '../spaces/repo.js';
import { presentInviteForEvent } from './present.js';
import * as repo from './repo.js';

/** What sealing an invite's secret is bound to: its row. */
const sealingContext = (ref: string) => `invite-link:${ref}`;

export function sealInviteSecret(key: Buffer, ref: string, secret: string): string {
  return encryptSecret(key, secret, sealingContext(ref));
}

export function unsealInviteSecret(key: Buffer, row: InviteLinkRow): string {
  return decryptSecret(key, row.sealed_secret, sealingContext(row.ref));
}

interface Limits {
  expiresAt?: string | null;
  maxUses?: number | null;
}

function checkExpiry(expiresAt: string | null | undefined): void {
  if (expiresAt && Date.parse(expiresAt) <= Date.now()) throw badRequest('body/expiresAt must be in the future');
}

function requireInviteLinksOn(org: OrganizationRow): void {
  if (org.invite_links !== 1) {
    throw badRequest(`invite links are turned off in organization ${org.id} (its inviteLinks setting)`);
  }
}

async function loadOrganization(db: DbOrTrx, organizationId: string): Promise<OrganizationRow> {
  const org = await findOrganization(db, organizationId);
  if (!org) throw notFound(`organization ${organizationId} not found`);
  return org;
}

async function requireAdmin(ctx: ServiceContext, organizationId: string, action: string) {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireOrgRole(membership, 'admin', action);
}

/** The space or collection an invite link leads to. */
export interface InviteTarget {
  type: 'space' | 'collection';
  id: string;
}

export function inviteTargetOf(row: InviteLinkRow): InviteTarget | null {
  return row.target_type === 'space' || row.target_type === 'collection'
    ? { type: row.target_type, id: row.target_id as string }
    : null;
}

/** The space or collection of `organizationId` with that id (a space in the trash counts as gone). */
export async function findInviteTarget(db: DbOrTrx, organizationId: string, target: InviteTarget) {
  const row = target.type === 'space' ? await findSpace(db, target.id) : await findCollection(db, target.id);
  if (!row || row.organization_id !== organizationId) return undefined;
  if ('deleted_at' in row && row.deleted_at) return undefined;
  return row;
}

/**
 * The role (organization invites: `role`) or level (invites to a space or a collection: `level`)
 * a create or update body gives, checked against the invite's form (the official oneOf).
 */
function roleOf(body: { role?: Role | null; level?: Role | null }, target: InviteTarget | null): Role | null {
  const [wanted, other] = target ? (['level', 'role'] as const) : (['role', 'level'] as const);
  if (body[other] !== undefined) {
    throw badRequest(
      target
        ? `body/role applies to organization invites; an invite to a ${target.type} takes body/level`
        : 'body/level applies to invites to a space or a collection; an organization invite takes body/role',
    );
  }
  const value = body[wanted];
  if (value === undefined) throw badRequest(`body must have required property ${wanted}`);
  return value;
}

/** The target a create body names: none, a space or a collection (not both). */
function targetOf(body: { space?: string; collection?: string }): InviteTarget | null {
  if (body.space !== undefined && body.collection !== undefined) {
    throw badRequest('body must name a space or a collection, not both');
  }
  if (body.space !== undefined) return { type: 'space', id: body.space };
  if (body.collection !== undefined) return { type: 'collection', id: body.collection };
  return null;
}

/**
 * Creates an invite link (to the organization, or to a space or a collection of it); its row and
 * its secret (the invite's id), which only its answer shows in full.
 */
export async function createInviteLink(
  ctx: ServiceContext,
  organizationId: string,
  body: Limits & { role?: Role | null; level?: Role | null; space?: string; collection?: string },
  secretsKey: Buffer,
): Promise<{ row: InviteLinkRow; secret: string }> {
  await requireAdmin(ctx, organizationId, 'create invite links');
  const target = targetOf(body);
  const role = roleOf(body, target);
  checkExpiry(body.expiresAt);
  return inTransaction(ctx.db, async (trx) => {
    requireInviteLinksOn(await loadOrganization(trx, organizationId));
    if (target && !(await findInviteTarget(trx, organizationId, target))) {
      throw notFound(`${target.type} ${target.id} not found in organization ${organizationId}`);
    }
    const ref = newId();
    const secret = newId(32);
    const row: InviteLinkRow = {
      ref,
      organization_id: organizationId,
      secret_hash: repo.hashInviteSecret(secret),
      sealed_secret: sealInviteSecret(secretsKey, ref, secret),
      role,
      created_by: actingUser(ctx).id,
      created_at: nowIso(),
      expires_at: body.expiresAt ?? null,
      max_uses: body.maxUses ?? null,
      uses: 0,
      target_type: target?.type ?? null,
      target_id: target?.id ?? null,
    };
    await repo.insertInviteLink(trx, row);
    await recordInviteEvent(trx, ctx, 'invite.created', row);
    return { row, secret };
  });
}

function inviteLabel(row: InviteLinkRow): string {
  const target = inviteTargetOf(row);
  return `invite link (${row.role ?? 'guest'}${target ? ` on ${target.type} ${target.id}` : ''})`;
}

async function recordInviteEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'invite.created' | 'invite.updated' | 'invite.deleted',
  row: InviteLinkRow,
  before?: InviteLinkRow,
) {
  const object = presentInviteForEvent(row);
  await recordEvent(trx, ctx, {
    type,
    organizationId: row.organization_id,
    target: { object: 'invite', id: row.ref, label: inviteLabel(row) },
    data: { object, ...(before ? { previous: previousValues(presentInviteForEvent(before), object) } : {}) },
  });
}

async function loadInvite(db: DbOrTrx, organizationId: string, secret: string): Promise<InviteLinkRow> {
  const row = await repo.findInviteLink(db, organizationId, secret);
  if (!row) throw notFound(`invite ${secret} not found in organization ${organizationId}`);
  return row;
}

/** Changes the role (or level) an invite link grants (and Bindery's limits: expiry, uses). */
export async function updateInviteLink(
  ctx: ServiceContext,
  organizationId: string,
  secret: string,
  body: Limits & { role?: Role | null; level?: Role | null },
): Promise<InviteLinkRow> {
  await requireAdmin(ctx, organizationId, 'change invite links');
  checkExpiry(body.expiresAt);
  return inTransaction(ctx.db, async (trx) => {
    const before = await loadInvite(trx, organizationId, secret);
    const role = roleOf(body, inviteTargetOf(before));
    const changes: Parameters<typeof repo.updateInviteLink>[2] = {};
    if (role !== before.role) changes.role = role;
    if (body.expiresAt !== undefined && body.expiresAt !== before.expires_at) changes.expires_at = body.expiresAt;
    if (body.maxUses !== undefined && body.maxUses !== before.max_uses) changes.max_uses = body.maxUses;
    if (Object.keys(changes).length === 0) return before;
    await repo.updateInviteLink(trx, before.ref, changes);
    const after = { ...before, ...changes };
    await recordInviteEvent(trx, ctx, 'invite.updated', after, before);
    return after;
  });
}

/** Deletes an invite link; whether it existed (the official answer differs: 205 or 204). */
export async function deleteInviteLink(ctx: ServiceContext, organizationId: string, secret: string): Promise<boolean> {
  await requireAdmin(ctx, organizationId, 'delete invite links');
  return inTransaction(ctx.db, async (trx) => {
    const row = await repo.findInviteLink(trx, organizationId, secret);
    if (!row) return false;
    await repo.deleteInviteLink(trx, row.ref);
    await recordInviteEvent(trx, ctx, 'invite.deleted', row);
    return true;
  });
}

/** Why an invite link cannot be used now, or null when it can. */
export function inviteUnusable(row: InviteLinkRow, now = Date.now()): string | null {
  if (row.expires_at && Date.parse(row.expires_at) <= now) return 'this invite link has expired';
  if (row.max_uses !== null && Number(row.uses) >= Number(row.max_uses)) return 'this invite link has been used up';
  return null;
}

const gone = (message: string) => new ApiError(410, message);

/** The change joining makes for a user: become a member, a guest gaining a role, or nothing. */
type JoinChange = 'add' | 'promote' | 'none';

async function joinChange(db: Db, organizationId: string, userId: string, role: Role | null): Promise<JoinChange> {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) return 'add';
  if (membership.disabled) throw forbidden(`your membership of organization ${organizationId} is disabled`);
  return membership.role === null && role !== null ? 'promote' : 'none';
}

/** Adds the acting user as a member with `role`, or gives a guest that role; records the event. */
async function applyJoin(
  trx: DbOrTrx,
  ctx: ServiceContext,
  organizationId: string,
  change: Exclude<JoinChange, 'none'>,
  role: Role | null,
) {
  const userId = actingUser(ctx).id;
  const presented = async () => {
    const record = await findMember(trx, organizationId, userId);
    const counts = (await memberCounts(trx, organizationId, [userId])).get(userId);
    return presentMember(record as NonNullable<typeof record>, counts ?? { teams: 0, spaces: 0, sites: 0 }, ctx.urls);
  };
  const before = change === 'promote' ? await presented() : undefined;
  if (change === 'add') await addMember(trx, organizationId, userId, role);
  else await setMemberRole(trx, organizationId, userId, role);
  const object = await presented();
  await recordEvent(trx, ctx, {
    type: change === 'add' ? 'member.added' : 'member.updated',
    organizationId,
    target: { object: 'member', id: userId, label: object.user.displayName },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/**
 * Joins the organization with an invite link: a new member gets the link's role, a guest gains it;
 * a member already there changes nothing (and uses nothing of the link).
 */
export async function joinWithInvite(ctx: ServiceContext, organizationId: string, secret: string): Promise<void> {
  const userId = actingUser(ctx).id;
  membershipChanged(organizationId, userId);
  await inTransaction(ctx.db, async (trx) => {
    const row = await loadInvite(trx, organizationId, secret);
    requireInviteLinksOn(await loadOrganization(trx, organizationId));
    const unusable = inviteUnusable(row);
    if (unusable) throw gone(unusable);
    const target = inviteTargetOf(row);
    if (target) return joinTarget(trx, ctx, row, target);
    const change = await joinChange(trx, organizationId, userId, row.role as Role | null);
    if (change === 'none') return;
    if (!(await repo.takeInviteUse(trx, row.ref))) throw gone('this invite link has been used up');
    await applyJoin(trx, ctx, organizationId, change, row.role as Role | null);
  });
  membershipChanged(organizationId, userId);
}

/**
 * Joins with an invite to a space or a collection: a non-member becomes a guest of the organization,
 * and whoever holds less there (directly) gains the link's level on it; a member keeps their role.
 * Uses the link only when something changes.
 */
async function joinTarget(trx: DbOrTrx, ctx: ServiceContext, row: InviteLinkRow, target: InviteTarget) {
  const userId = actingUser(ctx).id;
  const organizationId = row.organization_id;
  if (!(await findInviteTarget(trx, organizationId, target))) {
    throw gone(`the ${target.type} of this invite link no longer exists`);
  }
  const membership = await findMembership(trx, organizationId, userId);
  if (membership?.disabled) throw forbidden(`your membership of organization ${organizationId} is disabled`);
  const level = row.role as Role | null;
  const grantTarget = { ...target, organizationId };
  const held = (await findGrant(trx, grantTarget, 'user', userId))?.role as Role | undefined;
  const raises = level !== null && rank(held) < rank(level);
  if (membership && !raises) return;
  if (!(await repo.takeInviteUse(trx, row.ref))) throw gone('this invite link has been used up');
  if (!membership) await applyJoin(trx, ctx, organizationId, 'add', null);
  if (level !== null) await raiseUserGrant(trx, ctx, grantTarget, userId, level);
}

/** The domain of an e-mail address, lower-cased. */
function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Joins the organization when the caller's e-mail domain is one of its `emailDomains`, with its
 * default role; 400 otherwise. Whoever may join this way may learn that the organization exists.
 */
export async function joinByEmailDomain(ctx: ServiceContext, organizationId: string): Promise<void> {
  const user = actingUser(ctx);
  membershipChanged(organizationId, user.id);
  await inTransaction(ctx.db, async (trx) => {
    const org = await loadOrganization(trx, organizationId);
    const domains = (JSON.parse(org.email_domains) as string[]).map((d) => d.toLowerCase());
    if (!domains.includes(emailDomain(user.email))) {
      throw badRequest(`your e-mail domain is not one of the organization's email domains`);
    }
    const role = org.default_role as Role | null;
    const change = await joinChange(trx, organizationId, user.id, role);
    if (change !== 'none') await applyJoin(trx, ctx, organizationId, change, role);
  });
  membershipChanged(organizationId, user.id);
}
