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
import { presentMember } from '../members/present.js';
import { addMember, findMember, memberCounts, setMemberRole } from '../members/repo.js';
import { findOrganization } from '../organizations/repo.js';
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

/** The role an invite grants from the create or update body: `role` (organization invites only). */
function roleOf(body: { role?: Role | null; level?: Role | null }): Role | null | undefined {
  if (body.level !== undefined) {
    throw badRequest(
      'body/level applies to invites to a space or a collection; an organization invite takes body/role',
    );
  }
  return body.role;
}

/** Creates an invite link; its row and its secret (the invite's id), which only its answer shows in full. */
export async function createInviteLink(
  ctx: ServiceContext,
  organizationId: string,
  body: Limits & { role?: Role | null; level?: Role | null; space?: string; collection?: string },
  secretsKey: Buffer,
): Promise<{ row: InviteLinkRow; secret: string }> {
  await requireAdmin(ctx, organizationId, 'create invite links');
  if (body.space !== undefined || body.collection !== undefined) {
    throw badRequest(
      'invite links to a space or a collection are not supported; create an organization invite ({role})',
    );
  }
  const role = roleOf(body);
  if (role === undefined) throw badRequest('body must have required property role');
  checkExpiry(body.expiresAt);
  return inTransaction(ctx.db, async (trx) => {
    requireInviteLinksOn(await loadOrganization(trx, organizationId));
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
    };
    await repo.insertInviteLink(trx, row);
    await recordInviteEvent(trx, ctx, 'invite.created', row);
    return { row, secret };
  });
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
    target: { object: 'invite', id: row.ref, label: `invite link (${row.role ?? 'guest'})` },
    data: { object, ...(before ? { previous: previousValues(presentInviteForEvent(before), object) } : {}) },
  });
}

async function loadInvite(db: DbOrTrx, organizationId: string, secret: string): Promise<InviteLinkRow> {
  const row = await repo.findInviteLink(db, organizationId, secret);
  if (!row) throw notFound(`invite ${secret} not found in organization ${organizationId}`);
  return row;
}

/** Changes the role an invite link grants (and Bindery's limits: expiry, uses). */
export async function updateInviteLink(
  ctx: ServiceContext,
  organizationId: string,
  secret: string,
  body: Limits & { role?: Role | null; level?: Role | null },
): Promise<InviteLinkRow> {
  await requireAdmin(ctx, organizationId, 'change invite links');
  const role = roleOf(body);
  if (role === undefined) throw badRequest('body must have required property role');
  checkExpiry(body.expiresAt);
  return inTransaction(ctx.db, async (trx) => {
    const before = await loadInvite(trx, organizationId, secret);
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
    const change = await joinChange(trx, organizationId, userId, row.role as Role | null);
    if (change === 'none') return;
    if (!(await repo.takeInviteUse(trx, row.ref))) throw gone('this invite link has been used up');
    await applyJoin(trx, ctx, organizationId, change, row.role as Role | null);
  });
  membershipChanged(organizationId, userId);
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
