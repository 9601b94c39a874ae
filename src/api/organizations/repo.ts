import type { Static } from 'typebox';
import type { DbOrTrx } from '../../core/service.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { OrganizationRow, OrganizationUpdate } from '../../db/schema.js';
import { declareMemberWrite } from '../../db/write-scope.js';
import { conflict } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import type { CreateOrganizationBody, UpdateOrganizationBody } from './schemas.js';

export async function findOrganization(db: DbOrTrx, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization with whether the viewer owns one of its teams (`owns_team`: SQLite 0/1, PostgreSQL a boolean). */
const organizationForViewer = prepare((db, p: { id: string; userId: string }) =>
  db
    .selectFrom('organizations')
    .selectAll('organizations')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('team_members')
            .innerJoin('teams', 'teams.id', 'team_members.team_id')
            .select('team_members.user_id')
            .whereRef('teams.organization_id', '=', 'organizations.id')
            .where('team_members.user_id', '=', p.userId)
            .where('team_members.role', '=', 'owner'),
        )
        .as('owns_team'),
    )
    .where('organizations.id', '=', p.id),
);

/**
 * The organization and whether `userId` owns one of its teams, in one query (the organization
 * endpoints read both on every request); precompiled, as it runs on each of them.
 */
export async function findOrganizationForViewer(
  db: DbOrTrx,
  id: string,
  userId: string,
): Promise<{ org: OrganizationRow; ownsTeam: boolean } | undefined> {
  const row = await organizationForViewer.first(db, { id, userId });
  if (!row) return undefined;
  const { owns_team, ...org } = row;
  return { org: org as OrganizationRow, ownsTeam: Boolean(owns_team) };
}

/** Creates an organization with `ownerId` as its admin. */
export async function createOrganization(
  db: DbOrTrx,
  input: Static<typeof CreateOrganizationBody>,
  ownerId: string,
): Promise<OrganizationRow> {
  const now = nowIso();
  const row: OrganizationRow = {
    id: newId(),
    title: input.title,
    hostname: input.hostname ?? null,
    email_domains: JSON.stringify((input.emailDomains ?? []).map((d) => d.toLowerCase())),
    merge_rules: null,
    type: input.type ?? 'business',
    use_case: input.useCase ?? null,
    community_type: input.communityType ?? null,
    default_role: 'read',
    default_content_site: null,
    logo_url: null,
    sso: 0,
    ai: 1,
    invite_links: 0,
    plan: 'free',
    custom_hostname: null,
    created_at: now,
  };
  declareMemberWrite(row.id, ownerId);
  try {
    await db.insertInto('organizations').values(row).execute();
    await db
      .insertInto('members')
      .values({
        organization_id: row.id,
        user_id: ownerId,
        role: 'admin',
        disabled: 0,
        sso: 0,
        joined_at: now,
        last_seen_at: null,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`body/hostname "${input.hostname}" is already taken`);
    throw error;
  }
  return row;
}

/** Organizations where the user is a (non-guest, enabled) member, oldest first. */
export async function listOrganizationsOfUser(
  db: DbOrTrx,
  userId: string,
  paging: { page?: string; limit?: number },
): Promise<Page<OrganizationRow & { member_role: string | null }>> {
  const query = db
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_id', 'organizations.id')
    .selectAll('organizations')
    .select('members.role as member_role')
    .where('members.user_id', '=', userId)
    .where('members.role', 'is not', null)
    .where('members.disabled', '=', 0);
  return paginate(
    query,
    [
      { column: 'organizations.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'organizations.id', direction: 'asc', value: (r) => r.id },
    ],
    paging,
  );
}

/** Ids among `organizationIds` where the user owns at least one team. */
export async function organizationsWithOwnedTeam(
  db: DbOrTrx,
  userId: string,
  organizationIds: string[],
): Promise<Set<string>> {
  if (organizationIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('teams.organization_id')
    .distinct()
    .where('team_members.user_id', '=', userId)
    .where('team_members.role', '=', 'owner')
    .where('teams.organization_id', 'in', organizationIds)
    .execute();
  return new Set(rows.map((r) => r.organization_id));
}

export async function updateOrganization(
  db: DbOrTrx,
  id: string,
  body: Static<typeof UpdateOrganizationBody>,
): Promise<void> {
  const patch: OrganizationUpdate = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.emailDomains !== undefined)
    patch.email_domains = JSON.stringify(body.emailDomains.map((d) => d.toLowerCase()));
  if (body.hostname !== undefined) patch.hostname = body.hostname;
  if (body.defaultRole !== undefined) patch.default_role = body.defaultRole as Role | null;
  if (body.defaultContent !== undefined) patch.default_content_site = body.defaultContent?.site ?? null;
  if (body.logo !== undefined) patch.logo_url = body.logo;
  if (body.sso !== undefined) patch.sso = body.sso ? 1 : 0;
  if (body.ai !== undefined) patch.ai = body.ai ? 1 : 0;
  if (body.inviteLinks !== undefined) patch.invite_links = body.inviteLinks ? 1 : 0;
  if (body.mergeRules !== undefined) patch.merge_rules = JSON.stringify(body.mergeRules);
  if (Object.keys(patch).length === 0) return;
  try {
    await db.updateTable('organizations').set(patch).where('id', '=', id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`body/hostname "${body.hostname}" is already taken`);
    throw error;
  }
}

export async function touchLastSeen(db: DbOrTrx, organizationId: string, userId: string): Promise<void> {
  declareMemberWrite(organizationId, userId);
  await db
    .updateTable('members')
    .set({ last_seen_at: nowIso() })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}
