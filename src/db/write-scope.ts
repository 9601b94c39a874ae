/**
 * What a committed write can have changed, so that what is kept in memory (the response cache,
 * src/http/response-cache.ts, and the short-lived caches of src/core/cache.ts) is dropped only
 * where it may be stale: a write in one organization leaves another organization's answers alone.
 *
 * A write's scopes are the organizations whose data it changed (`org:<id>`) and the users whose
 * memberships it changed (`user:<id>`, a fact read across organizations: the caller's list of
 * organizations, who may see whom). They are declared by the code that makes the change, inside
 * the unit of work `inTransaction` opens ({@link inWriteScope}): recording the change's event
 * declares its organization (src/events/record.ts), writing a member row declares the member
 * ({@link declareMemberWrite}). The driver (src/db/writes.ts) checks the declarations against
 * what the transaction actually wrote ({@link scopesAtCommit}) and counts the write as global (it
 * may have changed anything) whenever they do not cover it:
 *
 * - a table outside {@link ORGANIZATION_TABLES} and `members` (users, tokens, sessions, settings,
 *   integrations shown to every organization, anything new), or a statement whose table is not
 *   plain to see, makes the write global;
 * - organization tables need an organization declared in the unit of work (its event's);
 * - member rows need one declared member per row changed;
 * - a write outside any unit of work (a job's own transaction, a script, a test's setup) is global.
 *
 * The premise of the organization rule: a unit of work changes the data of the organization(s)
 * whose audit log records it — a service authorizes in the organization of what it changes and
 * records its event there. Deleting an organization is global (rows of other tables go with it). *
 * Finer than the organization: a unit of work that declares the parts it changes (a space, a change
 * request: {@link declareSpaceWrite}, {@link declareChangeRequestWrite}) leaves the answers that
 * name other parts of the organization in memory; the rules of that, and their checks against
 * the tables written, are in src/db/scope-parts.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  changeRequestCountsPart,
  changeRequestListPart,
  changeRequestPart,
  isNeutralTable,
  isPartTable,
  kindOf,
  organizationBaseScope,
  type PartKind,
  spaceListPart,
  spacePart,
  spaceSetPart,
  writeCovered,
} from './scope-parts.js';

/** The scope of an organization's data. */
export const organizationScope = (organizationId: string) => `org:${organizationId}`;
/** The scope of a user's memberships (which organizations they are in, with which role). */
export const userScope = (userId: string) => `user:${userId}`;

/** Whether a cache tag is a scope (src/core/cache.ts tags entries with their scopes). */
export function isScope(tag: string): boolean {
  return tag.startsWith('org:') || tag.startsWith('user:');
}

/**
 * Tables whose every row belongs to one organization and is shown only in answers that authorize
 * in that organization.
 */
const ORGANIZATION_TABLES = new Set([
  'organizations',
  'teams',
  'team_members',
  'invite_links',
  'collections',
  'spaces',
  'content_permissions',
  'sites',
  'site_section_groups',
  'site_sections',
  'site_spaces',
  'site_external_links',
  'site_adaptive_schemas',
  'site_redirects',
  'site_share_links',
  'site_publishing_auth',
  'site_insight_events',
  'custom_hostnames',
  'integration_installations',
  'integration_space_installations',
  'openapi_specs',
  'openapi_spec_versions',
  'translation_settings',
  'translation_results',
  'storage_uploads',
  'revisions',
  'change_requests',
  'change_request_reviewers',
  'search_passages',
  'search_cjk_pairs',
  'search_index_state',
  'git_sync',
  'revision_git',
  'events',
  'webhooks',
  'webhook_deliveries',
  'comments',
  'comment_reactions',
  'change_request_reviews',
  'saml_providers',
]);

/**
 * Content-addressed tables: a row is only ever inserted, under the hash of what it holds, and is
 * shown only once a revision refers to it (a write of its own). Inserting one changes no answer
 * that exists, whoever inserts it (the content store writes them before the transaction that uses
 * them); an update or a delete is global.
 */
const CONTENT_ADDRESSED = new Set(['content_documents', 'page_versions', 'file_blobs', 'content_lists']);

/** The table a write statement changes (as Kysely compiles it), or null when it is not plain. */
const WRITTEN_TABLE = /^\s*(insert\s+into|update|delete\s+from)\s+"([a-z_0-9]+)"[\s(]/i;

/** What one transaction (or one statement outside a transaction) wrote, as far as scopes go. */
export class WrittenTables {
  organization = false;
  memberRows = 0;
  global = false;
  /** Whether it wrote organization data outside the parts (src/db/scope-parts.ts) for sure. */
  base = false;
  /** Rows written per part table (undefined: unknown). */
  readonly partRows = new Map<string, number | undefined>();

  /** Notes a statement that changed `rows` rows (undefined: unknown). */
  note(sql: string, rows: number | undefined): void {
    const match = WRITTEN_TABLE.exec(sql);
    const table = match?.[2];
    const verb = match?.[1]?.toLowerCase();
    if (table === undefined) this.global = true;
    else if (table === 'members') {
      if (rows === undefined) this.global = true;
      else this.memberRows += rows;
    } else if (table === 'organizations' && verb === 'delete from') this.global = true;
    else if (CONTENT_ADDRESSED.has(table)) {
      if (verb !== 'insert into') this.global = true;
    } else if (ORGANIZATION_TABLES.has(table)) {
      this.organization = true;
      if (isPartTable(table)) {
        const before = this.partRows.has(table) ? this.partRows.get(table) : 0;
        this.partRows.set(table, addRows(before, rows));
      } else if (!isNeutralTable(table)) this.base = true;
    } else this.global = true;
  }

  clear(): void {
    this.organization = false;
    this.memberRows = 0;
    this.global = false;
    this.base = false;
    this.partRows.clear();
  }
}

function addRows(before: number | undefined, rows: number | undefined): number | undefined {
  return before === undefined || rows === undefined ? undefined : before + rows;
}

/** What the code of one unit of work declared it changes. */
export class WriteScope {
  readonly organizations = new Set<string>();
  /** Parts of organizations it changes (src/db/scope-parts.ts), and how many of each kind. */
  readonly parts = new Set<string>();
  readonly partKinds = new Map<PartKind, number>();
  /** Whether it changes organizations' base whatever the tables say (src/db/scope-parts.ts). */
  base = false;
  /** Adds a part (once). */
  addPart(part: string): void {
    if (this.parts.has(part)) return;
    this.parts.add(part);
    const kind = kindOf(part);
    this.partKinds.set(kind, (this.partKinds.get(kind) ?? 0) + 1);
  }
  /** Members whose row was written, as `<organization> <user>`. */
  readonly members = new Set<string>();
  readonly users = new Set<string>();
}

const current = new AsyncLocalStorage<WriteScope>();

/** Runs `fn` as one unit of work whose writes carry its declarations (inside an open one: that one). */
export function inWriteScope<T>(fn: () => T): T {
  return current.getStore() ? fn() : current.run(new WriteScope(), fn);
}

/** The unit of work's organization changes: called when its event is recorded. */
export function declareOrganizationWrite(organizationId: string): void {
  current.getStore()?.organizations.add(organizationId);
}

/** A member row of `userId` in `organizationId` is written (added, removed, role, last seen…). */
export function declareMemberWrite(organizationId: string, userId: string): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.organizations.add(organizationId);
  scope.members.add(`${organizationId} ${userId}`);
  scope.users.add(userId);
}

/**
 * The unit of work changes the base of `organizationId` (src/db/scope-parts.ts), whatever tables it
 * writes: e.g. a space's fields that decide who may read what (its default level, its parent), which
 * the short-lived caches of permissions and sites hold.
 */
export function declareOrganizationBaseWrite(organizationId: string): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.organizations.add(organizationId);
  scope.base = true;
}

/**
 * The unit of work changes space `spaceId` of `organizationId` (its row, its live comments);
 * `sameExistence`: it surely neither creates, deletes nor restores a space.
 */
export function declareSpaceWrite(
  organizationId: string,
  spaceId: string,
  options: { sameExistence?: boolean } = {},
): void {
  const parts = [spacePart(spaceId), spaceListPart(organizationId)];
  if (!options.sameExistence) parts.push(spaceSetPart(organizationId));
  declareParts(organizationId, parts);
}

/**
 * The unit of work changes change request `changeRequestId` of space `spaceId` (row, content,
 * comments, reviews); `sameStatus`: it surely leaves the change request's status (and existence)
 * as they were, so the space's counts of change requests stay.
 */
export function declareChangeRequestWrite(
  organizationId: string,
  spaceId: string,
  changeRequestId: string,
  options: { sameStatus?: boolean } = {},
): void {
  const parts = [changeRequestPart(changeRequestId), changeRequestListPart(spaceId)];
  if (!options.sameStatus) parts.push(changeRequestCountsPart(spaceId));
  declareParts(organizationId, parts);
}

/** The unit of work changes `parts` of `organizationId` (db/scope-parts.ts). */
function declareParts(organizationId: string, parts: readonly string[]): void {
  const scope = current.getStore();
  if (!scope) return;
  scope.organizations.add(organizationId);
  for (const part of parts) scope.addPart(part);
}

/** Whether every part-table row written is covered by the declared parts. */
function partsCover(written: WrittenTables, scope: WriteScope): boolean {
  for (const [table, rows] of written.partRows) if (!writeCovered(table, rows, scope.partKinds)) return false;
  return true;
}

/**
 * The scopes of a committed write, or null for a global one (see the rules above). Reads the
 * declarations of the unit of work the commit runs in.
 */
export function scopesAtCommit(written: WrittenTables): string[] | null {
  if (written.global) return null;
  if (!written.organization && written.memberRows === 0) return []; // new content-addressed rows only
  const scope = current.getStore();
  if (scope === undefined) return null;
  if (written.organization && scope.organizations.size === 0) return null;
  if (written.memberRows > scope.members.size) return null;
  const scopes: string[] = [];
  // Member rows are the base: roles and memberships decide what every answer may show.
  const base = scope.base || written.base || written.memberRows > 0 || !partsCover(written, scope);
  for (const id of scope.organizations) {
    scopes.push(organizationScope(id));
    if (base) scopes.push(organizationBaseScope(id));
  }
  for (const part of scope.parts) scopes.push(part);
  for (const id of scope.users) scopes.push(userScope(id));
  return scopes;
}
