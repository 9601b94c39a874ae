/**
 * The permission model for collections and spaces — the one place that decides a role.
 *
 * Roles rank admin > create > review > edit > comment > read. A member's effective role on a
 * collection or space is the highest of:
 *   1. a role granted to the user on it,
 *   2. roles granted to any of the user's teams on it,
 *   3. the inherited role:
 *      - the node's `defaultLevel` when it is a role (for members who are not guests),
 *      - nothing when its `defaultLevel` is null (stored `none`: only explicit grants count),
 *      - otherwise (`inherit`) the effective role on its parent collection, and at the top the
 *        member's organization role.
 * An organization admin is admin everywhere. Guests (organization role null) have only what is
 * granted to them, on the node or on a collection above it. Disabled members and non-members have
 * nothing, whatever grants remain.
 *
 * The resolution itself ({@link resolveRole}) is a pure function over preloaded facts, so the same
 * code answers "what may this caller do" (per request, {@link loadViewer}) and "who may do what
 * here" (aggregate lists, {@link aggregateRoles}).
 */

import { sql } from 'kysely';
import { readsOrganization } from '../core/answer-scope.js';
import { siteOfReader } from '../core/site-tokens.js';
import type { Db } from '../db/database.js';
import { inJsonArray } from '../db/dialect.js';
import { prepare } from '../db/prepared.js';
import type { Role } from '../lib/schemas.js';
import { type CollectionShape, collectionTree, grantsOfUser } from './access-cache.js';
import { findMembership } from './organization.js';
import { highest, isRole } from './roles.js';
import { siteReaderSpaces } from './site-reader.js';

export type NodeType = 'space' | 'collection';

/** What the resolver needs to know of a space or collection. */
export interface ContentNode {
  type: NodeType;
  id: string;
  parent_id: string | null;
  default_level: string;
}

/** The facts about one user that resolution needs. */
export interface ResolveContext {
  /** null: guest, or not a member at all (see `member`). */
  orgRole: Role | null;
  member: boolean;
  /** Highest role granted to the user or their teams directly on a node (or on a site). */
  grantOn(type: NodeType | 'site', id: string): Role | null;
  collections: ReadonlyMap<string, CollectionShape>;
  /** The sites granted to the user or their teams (`inviteToSite`); none when not given. */
  grantedSites?: readonly string[];
  /** A site token's reader (./site-reader.ts): roles on its site's spaces, yet no member of the organization. */
  siteReader?: boolean;
}

const MAX_DEPTH = 64;

/** The effective role of the context's user on `node` (null: no access). */
export function resolveRole(
  ctx: ResolveContext,
  node: ContentNode,
  memo = new Map<string, Role | null>(),
): Role | null {
  if (!ctx.member) return null;
  if (ctx.orgRole === 'admin') return 'admin';
  return resolveNode(ctx, node, memo, 0);
}

function resolveNode(
  ctx: ResolveContext,
  node: ContentNode,
  memo: Map<string, Role | null>,
  depth: number,
): Role | null {
  const key = `${node.type}:${node.id}`;
  if (memo.has(key)) return memo.get(key) ?? null;
  let inherited: Role | null = null;
  if (node.default_level === 'inherit') {
    const parent = node.parent_id ? ctx.collections.get(node.parent_id) : undefined;
    if (parent && node.parent_id && depth < MAX_DEPTH) {
      inherited = resolveNode(ctx, { type: 'collection', id: node.parent_id, ...parent }, memo, depth + 1);
    } else {
      inherited = ctx.orgRole;
    }
  } else if (isRole(node.default_level) && ctx.orgRole !== null) {
    inherited = node.default_level;
  }
  const role = highest([ctx.grantOn(node.type, node.id), inherited]);
  memo.set(key, role);
  return role;
}

/** A grant as stored: a role given to a user or a team on a space or collection. */
export interface GrantRow {
  target_type: string;
  target_id: string;
  principal_type: string;
  principal_id: string;
  role: string;
}

/**
 * `grantOn` of a user: the highest role granted on each node to any of `principals` (the user,
 * `user:<id>`, and each of their teams, `team:<id>`), so a team's grant counts like a direct one.
 * Rows of other principals are ignored.
 */
export function grantsFor(rows: Iterable<GrantRow>, principals: Iterable<string>): ResolveContext['grantOn'] {
  const wanted = new Set(principals);
  const grants = new Map<string, Role | null>();
  for (const row of rows) {
    if (!wanted.has(`${row.principal_type}:${row.principal_id}`) || !isRole(row.role)) continue;
    const key = `${row.target_type}:${row.target_id}`;
    grants.set(key, highest([grants.get(key), row.role]));
  }
  return (type, id) => grants.get(`${type}:${id}`) ?? null;
}

/** Stored `default_level` → API `defaultLevel`. */
export function presentDefaultLevel(stored: string): Role | 'inherit' | null {
  if (stored === 'inherit') return 'inherit';
  return isRole(stored) ? stored : null;
}

/** API `defaultLevel` → stored value. */
export function storeDefaultLevel(level: Role | 'inherit' | null): string {
  return level === null ? 'none' : level;
}

/** A caller's view of one organization's content: resolves their role on any node, in memory. */
export class Viewer {
  private readonly memo = new Map<string, Role | null>();

  constructor(
    readonly userId: string,
    readonly organizationId: string,
    private readonly ctx: ResolveContext,
  ) {}

  get orgRole(): Role | null {
    return this.ctx.orgRole;
  }

  get isMember(): boolean {
    return this.ctx.member && !this.ctx.siteReader;
  }

  roleOn(node: ContentNode): Role | null {
    return resolveRole(this.ctx, node, this.memo);
  }

  /**
   * The role on a space given by its row (or any object with these columns). Lists call it per row:
   * it copies the three fields, where `roleOn({ type: 'space', ...row })` copies the whole row.
   */
  roleOnSpace(space: Pick<ContentNode, 'id' | 'parent_id' | 'default_level'>): Role | null {
    return this.roleOn({ type: 'space', id: space.id, parent_id: space.parent_id, default_level: space.default_level });
  }

  /** The sites a grant reaches the user on (directly or through a team), whatever their organization role. */
  grantedSites(): readonly string[] {
    return this.ctx.member ? (this.ctx.grantedSites ?? []) : [];
  }

  roleOnCollection(id: string): Role | null {
    const shape = this.ctx.collections.get(id);
    return shape ? this.roleOn({ type: 'collection', id, ...shape }) : null;
  }
}

const NO_GRANTS = new Map<string, Role>();
const NO_COLLECTIONS = new Map<string, CollectionShape>();

/**
 * What is needed to resolve `userId`'s roles in `organizationId`: their membership, the grants
 * reaching them and the collection tree, each from its short-lived cache (./access-cache.ts) or
 * one query; nothing more for a non-member, who has no role anywhere.
 */
export async function loadViewer(db: Db, organizationId: string, userId: string): Promise<Viewer> {
  const readerOf = siteOfReader(userId);
  if (readerOf !== null) {
    // A site token's reader: `read` on its site's spaces, nothing elsewhere (./site-reader.ts).
    readsOrganization(organizationId);
    const spaces = await siteReaderSpaces(db, organizationId, readerOf);
    return new Viewer(userId, organizationId, {
      orgRole: null,
      member: spaces.size > 0,
      grantOn: (type, id) => (type === 'space' && spaces.has(id) ? 'read' : null),
      collections: NO_COLLECTIONS,
      siteReader: true,
    });
  }
  const membership = await findMembership(db, organizationId, userId);
  const member = membership !== null && !membership.disabled;
  const [grants, collections] = member
    ? await Promise.all([grantsOfUser(db, organizationId, userId), collectionTree(db, organizationId)])
    : [NO_GRANTS, NO_COLLECTIONS];
  return new Viewer(userId, organizationId, {
    orgRole: member ? membership.role : null,
    member,
    grantOn: (type, id) => grants.get(`${type}:${id}`) ?? null,
    collections,
    grantedSites: [...grants.keys()].filter((key) => key.startsWith('site:')).map((key) => key.slice(5)),
  });
}

/**
 * The memberships and grants of a page of users ({@link loadViewers}), precompiled: the ids go as
 * one JSON parameter, so one SQL text serves every page. Built with two `in (…)` lists of 100 ids,
 * building and compiling it cost 5.6 % of an uncached member page's CPU on PostgreSQL, which also
 * received a text of 203 parameters.
 */
const principalGrants = prepare((db, p: { organizationId: string; ids: string }) =>
  db
    .with('principals', (qb) =>
      qb
        .selectFrom('members')
        .select([
          'members.user_id',
          'members.role',
          (eb) => eb.ref('members.disabled').$castTo<number | null>().as('disabled'),
          sql<string>`'user'`.as('principal_type'),
          'members.user_id as principal_id',
        ])
        .where('members.organization_id', '=', p.organizationId)
        .where((eb) => inJsonArray(db, eb.ref('members.user_id'), p.ids))
        .unionAll(
          qb
            .selectFrom('team_members')
            .innerJoin('teams', 'teams.id', 'team_members.team_id')
            .select([
              'team_members.user_id',
              sql<string | null>`null`.as('role'),
              sql<number | null>`null`.as('disabled'),
              sql<string>`'team'`.as('principal_type'),
              'team_members.team_id as principal_id',
            ])
            .where('teams.organization_id', '=', p.organizationId)
            .where((eb) => inJsonArray(db, eb.ref('team_members.user_id'), p.ids)),
        ),
    )
    .selectFrom('principals')
    .leftJoin('content_permissions', (join) =>
      join
        .on('content_permissions.organization_id', '=', p.organizationId)
        .onRef('content_permissions.principal_type', '=', 'principals.principal_type')
        .onRef('content_permissions.principal_id', '=', 'principals.principal_id'),
    )
    .select([
      'principals.user_id',
      'principals.role',
      'principals.disabled',
      'principals.principal_type',
      'principals.principal_id',
      'content_permissions.target_type',
      'content_permissions.target_id',
      'content_permissions.role as granted',
    ]),
);

/**
 * The viewers of several users of one organization (a page of members) in one query however many
 * users there are (the collection tree comes from its cache): each user's membership and the
 * grants reaching them, their own and their teams' (one row per principal of theirs and grant on
 * it; a principal with no grant comes once, with none). Users who are not enabled members resolve
 * to no role, as with {@link loadViewer}.
 */
export async function loadViewers(db: Db, organizationId: string, userIds: string[]): Promise<Map<string, Viewer>> {
  const viewers = new Map<string, Viewer>();
  if (userIds.length === 0) return viewers;
  const [rows, collections] = await Promise.all([
    principalGrants.all(db, { organizationId, ids: JSON.stringify(userIds) }),
    collectionTree(db, organizationId),
  ]);
  const membershipOf = new Map<string, { role: string | null; disabled: number }>();
  const grantsOf = new Map<string, GrantRow[]>();
  for (const row of rows) {
    if (row.principal_type === 'user')
      membershipOf.set(row.user_id, { role: row.role, disabled: Number(row.disabled) });
    if (row.target_type === null || row.target_id === null || row.granted === null) continue;
    const grant = { ...row, target_type: row.target_type, target_id: row.target_id, role: row.granted };
    const grants = grantsOf.get(row.user_id);
    if (grants) grants.push(grant);
    else grantsOf.set(row.user_id, [grant]);
  }
  for (const userId of userIds) {
    const membership = membershipOf.get(userId);
    const member = membership !== undefined && membership.disabled === 0;
    const grants = grantsOf.get(userId) ?? [];
    const grantedSites = [...new Set(grants.filter((r) => r.target_type === 'site').map((r) => r.target_id))];
    viewers.set(
      userId,
      new Viewer(userId, organizationId, {
        orgRole: member && isRole(membership?.role) ? membership.role : null,
        member,
        grantOn: grantsFor(
          grants,
          grants.map((r) => `${r.principal_type}:${r.principal_id}`),
        ),
        collections,
        grantedSites,
      }),
    );
  }
  return viewers;
}

/** The collection ids from `node`'s parent up to the root. */
function ancestors(node: ContentNode, collections: ReadonlyMap<string, CollectionShape>): string[] {
  const chain: string[] = [];
  let parent = node.parent_id;
  while (parent && collections.has(parent) && chain.length < MAX_DEPTH) {
    chain.push(parent);
    parent = collections.get(parent)?.parent_id ?? null;
  }
  return chain;
}

/**
 * Every user with access to `node` and their effective role, for aggregate lists: all enabled
 * members are considered (guests through their grants), with the same {@link resolveRole}.
 */
export async function aggregateRoles(
  db: Db,
  organizationId: string,
  node: ContentNode,
): Promise<Array<{ userId: string; role: Role }>> {
  const collections = await collectionTree(db, organizationId);
  const chain = ancestors(node, collections);
  const [members, teamMembers, grants] = await Promise.all([
    db
      .selectFrom('members')
      .select(['user_id', 'role'])
      .where('organization_id', '=', organizationId)
      .where('disabled', '=', 0)
      .execute(),
    db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select(['team_members.team_id', 'team_members.user_id'])
      .where('teams.organization_id', '=', organizationId)
      .execute(),
    db
      .selectFrom('content_permissions')
      .select(['target_type', 'target_id', 'principal_type', 'principal_id', 'role'])
      .where('organization_id', '=', organizationId)
      .where((eb) =>
        eb.or([
          eb.and([eb('target_type', '=', node.type), eb('target_id', '=', node.id)]),
          ...(chain.length > 0 ? [eb.and([eb('target_type', '=', 'collection'), eb('target_id', 'in', chain)])] : []),
        ]),
      )
      .execute(),
  ]);
  const teamsOf = new Map<string, string[]>();
  for (const tm of teamMembers) teamsOf.set(tm.user_id, [...(teamsOf.get(tm.user_id) ?? []), tm.team_id]);
  const result: Array<{ userId: string; role: Role }> = [];
  for (const m of members) {
    const principals = [`user:${m.user_id}`, ...(teamsOf.get(m.user_id) ?? []).map((t) => `team:${t}`)];
    const role = resolveRole(
      {
        orgRole: isRole(m.role) ? m.role : null,
        member: true,
        grantOn: grantsFor(grants, principals),
        collections,
      },
      node,
    );
    if (role) result.push({ userId: m.user_id, role });
  }
  return result;
}
