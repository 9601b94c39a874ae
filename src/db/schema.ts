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
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

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
  icon_url: string | null;
  /** JSON merge rules; null means `{type: inherit}`. */
  merge_rules: string | null;
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

/** A published integration; `name` is its global identifier. Republishing bumps `version`. */
export interface IntegrationsTable {
  name: string;
  /** The owning organization. */
  organization_id: string;
  version: number;
  title: string;
  description: string;
  summary: string | null;
  /** `public`, `private` or `unlisted` */
  visibility: string;
  /** `all`, `site`, `space` or `organization` */
  target: string;
  verified: Bool;
  /** JSON string[] */
  scopes: string;
  /** JSON string[] */
  categories: string;
  /** JSON IntegrationBlock[] */
  blocks: string;
  /** JSON IntegrationContentSource[] */
  content_sources: string;
  /** JSON IntegrationConfigurations */
  configurations: string;
  /** JSON `{url, label}[]` */
  external_links: string;
  /** JSON string or object; null when not given. */
  content_security_policy: string | null;
  /** The integration's script; served to admins of the owning organization only. */
  script: string;
  /** JSON `{name: value}` sealed with AES-256-GCM (core/secrets.ts, aad = name); never returned. */
  secrets: string | null;
  has_blocks: Bool;
  has_content_sources: Bool;
  /** Every block `urlUnfurl` pattern, lower-cased, one a line (for the blockDomain filter). */
  block_urls: string;
  /** How many preview images are stored in `integration_images`. */
  preview_count: number;
  has_icon: Bool;
  created_at: string;
  updated_at: string;
}

/** Icon (`slot` = `icon`) and preview images (`preview-0` …) of an integration, as bytes. */
export interface IntegrationImagesTable {
  integration_name: string;
  slot: string;
  content_type: string;
  data: Buffer;
}

/** An integration installed on an organization (the account-level installation). */
export interface IntegrationInstallationsTable {
  id: string;
  integration_name: string;
  organization_id: string;
  /** `active`, `pending` or `paused` */
  status: string;
  /** JSON object */
  configuration: string;
  created_at: string;
  updated_at: string;
}

/** An organization installation enabled on one of its spaces. */
export interface IntegrationSpaceInstallationsTable {
  installation_id: string;
  integration_name: string;
  space_id: string;
  /** JSON object */
  configuration: string;
  created_at: string;
}

export interface JobsTable {
  id: string;
  /** Which handler runs it, e.g. `openapi.process`. */
  kind: string;
  /** JSON object given to the handler. */
  payload: string;
  /** `queued`, `running`, `done` or `failed`. */
  state: string;
  /** Not claimed before this time. */
  run_at: string;
  /** How many times it was claimed (a crashed run counts). */
  attempts: number;
  /** Id of the worker holding it while `running`. */
  locked_by: string | null;
  /** While `running`: when the holder's lease ends; past it, another worker may take the job over. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface OpenapiSpecsTable {
  id: string;
  organization_id: string;
  /** Unique per organization. */
  slug: string;
  /** Exactly one of source_url / source_text is set. */
  source_url: string | null;
  source_text: string | null;
  /** Bumped by every change of the source, so a job processing an older source can tell. */
  source_revision: number;
  /** `pending`, `progress` or `complete`. */
  processing_state: string;
  last_version_id: string | null;
  last_processed_at: string | null;
  /** `FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR` when the last processing failed. */
  last_process_error_code: string | null;
  /** JSON `{message}[]` of the last failure (truncated), or null. */
  last_process_errors: string | null;
  last_process_error_count: number;
  created_at: string;
  updated_at: string;
}

export interface OpenapiSpecVersionsTable {
  id: string;
  spec_id: string;
  /** 1, 2, ... per specification: the order versions were made in. */
  number: number;
  /** Where the entry document was fetched from; null for a specification given as text. */
  url: string | null;
  /** JSON object: path of each file (entry first) → its parsed document. Never changed. */
  filesystem: string;
  /** SHA-256 of `filesystem`: a new version is stored only when it differs from the last one. */
  content_hash: string;
  created_at: string;
}

export interface TranslationSettingsTable {
  id: string;
  organization_id: string;
  title: string;
  /** JSON string[] of language codes. */
  languages: string;
  created_at: string;
  updated_at: string;
}

/** A docs site of an organization. */
export interface SitesTable {
  id: string;
  organization_id: string;
  /** Site type (`basic`, `premium`, ...). */
  type: string;
  title: string;
  /** Path segment of the published site; unique within the organization. */
  basename: string;
  /** Custom hostname of the site; null: published under the organization's address. */
  hostname: string | null;
  /** Proxy origin (a URL without scheme, e.g. `example.com/docs`); null: no proxy. */
  proxy: string | null;
  visibility: string;
  published: Bool;
  adaptive_content: Bool;
  /** Ads review status (`pending`, `in-review`, `live`, `rejected`, `disabled`). */
  ads_status: string;
  /** Set when the site is submitted for ads review (0008_ads). */
  ads_topic: string | null;
  /** E-mail of who submitted the site, for the partner to reach. */
  ads_email: string | null;
  ads_zone_id: string | null;
  ads_reporting_id: string | null;
  /** Why the partner rejected the site. */
  ads_reason: string | null;
  /** JSON customization settings; null: the defaults. */
  customization: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A group of sections. Groups and the sections outside any group are the top level of a site's
 * structure and share one sequence of 0-based `position`s.
 */
export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  /** null: at the top level of the site. */
  group_id: string | null;
  title: string;
  description: string | null;
  /** Unique within the site. */
  path: string;
  icon: string | null;
  condition: string | null;
  /** Exactly one section of a site that has sections is the default. */
  is_default: Bool;
  /** Order among the siblings: inside the group, or at the top level with the groups. */
  position: number;
  created_at: string;
  updated_at: string;
}

/** A space published on a site, at the root of the site (no section) or in one section. */
export interface SiteSpacesTable {
  id: string;
  site_id: string;
  /** null: at the root of a site without sections. */
  section_id: string | null;
  space_id: string;
  /** Unique within the section (or the root). */
  path: string;
  condition: string | null;
  /** Exactly one site space of each section (or of the root) is the default. */
  is_default: Bool;
  /** Order within the section (or the root), 0-based. */
  position: number;
  /** JSON customization overrides of the site's settings; null: none. */
  customization: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  /** Unique within the site. */
  source: string;
  /** `site-section`, `site-space` or `external`. */
  destination_kind: string;
  /** Section or site-space id for the internal kinds. */
  destination_id: string | null;
  /** URL of an `external` destination. */
  destination_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  /** The secret visitors present; unique across all sites. */
  key: string;
  active: Bool;
  created_at: string;
}

/** Visitor authentication settings of a site (0009_site_publishing). */
export interface SitePublishingAuthTable {
  site_id: string;
  /** `custom` or `integration`. */
  backend: string;
  /** The HS256 key visitors' JWTs are signed with, sealed with the secrets key (aad: the site id). */
  private_key: string;
  /** Where a visitor without a valid token is sent (the login URL); null: a 401 page. */
  fallback_url: string | null;
  logout_url: string | null;
  created_at: string;
  updated_at: string;
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

/**
 * One section of one page of a space's live revision, for full-text search (see src/search/ and
 * migration 0007). PostgreSQL adds a generated `tsv` column; SQLite mirrors the text columns into
 * the FTS5 table `search_fts` (rowid = id).
 */
export interface SearchPassagesTable {
  id: Generated<number>;
  space_id: string;
  /** The revision the passage was read from (the space's live one when indexed). */
  revision_id: string;
  page_id: string;
  page_title: string;
  /** The page's path in the space (slugs joined by `/`). */
  page_path: string;
  /** 0 for the text before the first heading, then 1, 2, … per heading. */
  section: number;
  /** The heading's anchor; null for section 0. */
  anchor: string | null;
  heading: string | null;
  /** Plain text of the section (and, for section 0, the page description). */
  body: string;
}

/** Which revision of each space `search_passages` was built from. */
export interface SearchIndexStateTable {
  space_id: string;
  revision_id: string;
  indexed_at: string;
}

/** A space's Git Sync connection and its last operation (one row per space). */
export interface GitSyncTable {
  space_id: string;
  installation_id: string;
  /** `github` or `gitlab` (the official enum): given by `gitInfo.provider`, else guessed from the host. */
  provider: string;
  /** The repository URL without credentials. */
  repo_url: string;
  tree_url: string | null;
  ref: string;
  project_directory: string | null;
  /** Id of the last operation; a job whose id differs is stale. */
  operation_id: string;
  /** `import` or `export`. */
  direction: string;
  /** `running`, `success`, `failure` (`timeout` is derived from `started_at`). */
  state: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  /** The URL with its credentials, sealed (core/secrets.ts) while the operation runs; null after. */
  sealed_url: string | null;
  /** JSON: what the operation was asked (commit message, force, standalone, author). */
  options: string;
  commit_oid: string | null;
  revision_id: string | null;
  change_request_id: string | null;
  updated_at: string;
}

/** The Git commit a revision was exported to or imported from. */
export interface RevisionGitTable {
  revision_id: string;
  space_id: string;
  commit_oid: string;
  message: string;
  ref: string;
  /** 1 when Bindery made the commit (an export). */
  exported: number;
  /** JSON: `{pages: {id: {oid, path}}, files: {id: {oid, path}}}`. */
  blobs: string;
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
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_redirects: SiteRedirectsTable;
  site_share_links: SiteShareLinksTable;
  site_publishing_auth: SitePublishingAuthTable;
  integrations: IntegrationsTable;
  integration_images: IntegrationImagesTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  jobs: JobsTable;
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
  translation_settings: TranslationSettingsTable;
  content_documents: ContentDocumentsTable;
  page_versions: PageVersionsTable;
  file_blobs: FileBlobsTable;
  revisions: RevisionsTable;
  change_requests: ChangeRequestsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  search_passages: SearchPassagesTable;
  search_index_state: SearchIndexStateTable;
  git_sync: GitSyncTable;
  revision_git: RevisionGitTable;
  idempotency_keys: IdempotencyKeysTable;
}

/** The first response to a POST sent with an `Idempotency-Key`, replayed to its retries (core/idempotency.ts). */
export interface IdempotencyKeysTable {
  token_id: string;
  key: string;
  /** SHA-256 of method, path and body: a retry must send the same. */
  fingerprint: string;
  /** `running` while the first request is being handled, then `done`. */
  state: string;
  status: number | null;
  /** JSON object of the response headers replayed (`location`, `content-type`). */
  headers: string | null;
  body: string | null;
  created_at: string;
  expires_at: string;
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
export type IntegrationRow = Selectable<IntegrationsTable>;
export type IntegrationInstallationRow = Selectable<IntegrationInstallationsTable>;
export type IntegrationSpaceInstallationRow = Selectable<IntegrationSpaceInstallationsTable>;
export type JobRow = Selectable<JobsTable>;
export type OpenapiSpecRow = Selectable<OpenapiSpecsTable>;
export type OpenapiSpecVersionRow = Selectable<OpenapiSpecVersionsTable>;
export type TranslationSettingsRow = Selectable<TranslationSettingsTable>;
export type SiteRow = Selectable<SitesTable>;
export type SiteSectionGroupRow = Selectable<SiteSectionGroupsTable>;
export type SiteSectionRow = Selectable<SiteSectionsTable>;
export type SiteSpaceRow = Selectable<SiteSpacesTable>;
export type SiteRedirectRow = Selectable<SiteRedirectsTable>;
export type SiteShareLinkRow = Selectable<SiteShareLinksTable>;
export type SitePublishingAuthRow = Selectable<SitePublishingAuthTable>;
export type RevisionRow = Selectable<RevisionsTable>;
export type ChangeRequestRow = Selectable<ChangeRequestsTable>;

export type GitSyncRow = Selectable<GitSyncTable>;
export type RevisionGitRow = Selectable<RevisionGitTable>;
