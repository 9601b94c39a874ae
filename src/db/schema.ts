/**
 * The database's shape, as Kysely sees it. One interface per table; the API areas read and write
 * these through their own `repo.ts`.
 *
 * Storage conventions (identical on SQLite and PostgreSQL, so one set of queries serves both):
 * - timestamps are ISO 8601 strings in UTC with milliseconds (`2026-01-02T03:04:05.678Z`); being fixed
 *   width, they sort chronologically as text, which keyset paging relies on;
 * - booleans are integers 0/1;
 * - structured values are JSON text, parsed by the presenters.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';

/** 0 or 1: see the storage conventions above. */
export type Bool = number;

export interface UsersTable {
  id: string;
  /** Always stored lower-cased; unique. */
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: string;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  hostname: string | null;
  /** JSON string[] */
  email_domains: string;
  type: string;
  use_case: string | null;
  community_type: string | null;
  /** null: new members join as guests. */
  default_role: string | null;
  default_content_site: string | null;
  logo_url: string | null;
  sso: Bool;
  ai: Bool;
  invite_links: Bool;
  plan: string;
  custom_hostname: string | null;
  /** JSON merge rules; null means `{type: none}`. */
  merge_rules: string | null;
  created_at: string;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  /** null: a guest, who sees only what is granted to them directly. */
  role: string | null;
  disabled: Bool;
  sso: Bool;
  joined_at: string;
  last_seen_at: string | null;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  /** `owner` or `member` */
  role: string;
  created_at: string;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secret_hash: string;
  /** JSON string[]; null means every right of the user. */
  scopes: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/**
 * `default_level` of collections and spaces: `inherit` (take the effective role on the parent, or the
 * organization role at the top), a role (every non-guest member gets at least it), or `none` (only
 * explicit grants; the API shows it as null).
 */
export type DefaultLevelValue = string;

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: DefaultLevelValue;
  /** Order among the siblings (collections and spaces under the same parent), 0-based. */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  edit_mode: string;
  language: string | null;
  default_level: DefaultLevelValue;
  position: number;
  /** The live revision. */
  revision_id: string;
  created_at: string;
  updated_at: string;
  /** Set when soft-deleted: hidden from lists, restorable. */
  deleted_at: string | null;
}

/** A role granted to a user or a team on a space or collection. */
export interface ContentPermissionsTable {
  organization_id: string;
  target_type: 'space' | 'collection';
  target_id: string;
  principal_type: 'user' | 'team';
  principal_id: string;
  role: string;
  created_at: string;
}

/** A document body, stored once per distinct content (keyed by its SHA-256). */
export interface ContentDocumentsTable {
  hash: string;
  /** JSON of the official `JSONDocument`. */
  body: string;
  /** JSON array of the content references the document makes (for links and backlinks). */
  links: string;
  created_at: string;
}

/** One version of one page, content-addressed; `data` lists its children's version hashes. */
export interface PageVersionsTable {
  hash: string;
  page_id: string;
  /** JSON `StoredPage` (see src/content/store.ts). */
  data: string;
  created_at: string;
}

/** File bytes, stored once per distinct content (see src/storage/files.ts). */
export interface FileBlobsTable {
  hash: string;
  bytes: Buffer;
  size: number;
  created_at: string;
}

/** An immutable snapshot of a space's content. */
export interface RevisionsTable {
  id: string;
  space_id: string;
  /** JSON string[] of parent revision ids. */
  parents: string;
  /** `edits` or `merge`. */
  type: string;
  /** JSON string[]: version hashes of the top-level pages. */
  pages: string;
  /** JSON `StoredFile[]`. */
  files: string;
  /** JSON `StoredReusableContent[]`. */
  reusable_contents: string;
  /** For a merge revision, the change request merged. */
  merged_from: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  /** 1, 2, … within the space. */
  number: number;
  /** `draft`, `open`, `archived` or `merged`. */
  status: string;
  subject: string;
  created_by: string;
  /** The change request's current revision. */
  revision_id: string;
  /** The live revision it started from. */
  revision_initial: string;
  /** The live revision its merge produced. */
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  /** The change request's revision when the review was requested. */
  revision_id: string;
  created_at: string;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  api_tokens: ApiTokensTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  content_permissions: ContentPermissionsTable;
  content_documents: ContentDocumentsTable;
  page_versions: PageVersionsTable;
  file_blobs: FileBlobsTable;
  revisions: RevisionsTable;
  change_requests: ChangeRequestsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
}

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
export type MemberRow = Selectable<MembersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewApiToken = Insertable<ApiTokensTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type SpaceRow = Selectable<SpacesTable>;
export type RevisionRow = Selectable<RevisionsTable>;
export type ChangeRequestRow = Selectable<ChangeRequestsTable>;
