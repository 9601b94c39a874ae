/**
 * The database's shape, as Kysely sees it: one interface per table, in `schema/<area>.ts`; the API areas
 * read and write them through their own `repo.ts`.
 *
 * Storage conventions (identical on SQLite and PostgreSQL, so one set of queries serves both):
 * - timestamps are ISO 8601 strings in UTC with milliseconds (`2026-01-02T03:04:05.678Z`); being fixed
 *   width, they sort chronologically as text, which keyset paging relies on;
 * - booleans are integers 0/1;
 * - structured values are JSON text, parsed by the presenters.
 */
import type {
  ApiTokensTable,
  InviteLinksTable,
  MembersTable,
  OrganizationsTable,
  TeamMembersTable,
  TeamsTable,
  UsersTable,
} from './schema/accounts.js';
import type {
  ChangeRequestReviewersTable,
  ChangeRequestsTable,
  ContentDocumentsTable,
  ContentListsTable,
  FileBlobsTable,
  PageVersionsTable,
  RevisionsTable,
  StorageUploadsTable,
} from './schema/content.js';
import type { CollectionsTable, ContentPermissionsTable, SpacesTable } from './schema/content-tree.js';
import type { EventsTable, WebhookDeliveriesTable, WebhooksTable } from './schema/events.js';
import type { GitSyncTable, RevisionGitTable } from './schema/git.js';
import type { SiteInsightEventsTable } from './schema/insights.js';
import type {
  IntegrationImagesTable,
  IntegrationInstallationsTable,
  IntegrationSpaceInstallationsTable,
  IntegrationsTable,
} from './schema/integrations.js';
import type {
  OpenapiSpecsTable,
  OpenapiSpecVersionsTable,
  TranslationResultsTable,
  TranslationSettingsTable,
} from './schema/openapi.js';
import type { ChangeRequestReviewsTable, CommentReactionsTable, CommentsTable } from './schema/reviews.js';
import type { SearchCjkPairsTable, SearchIndexStateTable, SearchPassagesTable } from './schema/search.js';
import type { PasswordResetsTable, SessionsTable, SignInFailuresTable, UserPasswordsTable } from './schema/sessions.js';
import type {
  CustomHostnamesTable,
  SiteAdaptiveSchemasTable,
  SiteExternalLinksTable,
  SitePublishingAuthTable,
  SiteRedirectsTable,
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteShareLinksTable,
  SiteSpacesTable,
  SitesTable,
} from './schema/sites.js';
import type { SamlAssertionsTable, SamlProvidersTable } from './schema/sso.js';
import type { IdempotencyKeysTable, JobsTable, SettingsTable } from './schema/system.js';

export type * from './schema/accounts.js';
export type * from './schema/content.js';
export type * from './schema/content-tree.js';
export type * from './schema/events.js';
export type * from './schema/git.js';
export type * from './schema/insights.js';
export type * from './schema/integrations.js';
export type * from './schema/openapi.js';
export type * from './schema/reviews.js';
export type * from './schema/search.js';
export type * from './schema/sessions.js';
export type * from './schema/sites.js';
export type * from './schema/sso.js';
export type * from './schema/system.js';
export type { Bool } from './schema/types.js';

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  api_tokens: ApiTokensTable;
  invite_links: InviteLinksTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  content_permissions: ContentPermissionsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_external_links: SiteExternalLinksTable;
  site_adaptive_schemas: SiteAdaptiveSchemasTable;
  site_redirects: SiteRedirectsTable;
  site_share_links: SiteShareLinksTable;
  site_publishing_auth: SitePublishingAuthTable;
  site_insight_events: SiteInsightEventsTable;
  custom_hostnames: CustomHostnamesTable;
  integrations: IntegrationsTable;
  integration_images: IntegrationImagesTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  jobs: JobsTable;
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
  translation_settings: TranslationSettingsTable;
  translation_results: TranslationResultsTable;
  storage_uploads: StorageUploadsTable;
  content_documents: ContentDocumentsTable;
  page_versions: PageVersionsTable;
  content_lists: ContentListsTable;
  file_blobs: FileBlobsTable;
  revisions: RevisionsTable;
  change_requests: ChangeRequestsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  search_passages: SearchPassagesTable;
  search_index_state: SearchIndexStateTable;
  search_cjk_pairs: SearchCjkPairsTable;
  git_sync: GitSyncTable;
  revision_git: RevisionGitTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  comments: CommentsTable;
  comment_reactions: CommentReactionsTable;
  change_request_reviews: ChangeRequestReviewsTable;
  sessions: SessionsTable;
  user_passwords: UserPasswordsTable;
  password_resets: PasswordResetsTable;
  sign_in_failures: SignInFailuresTable;
  saml_providers: SamlProvidersTable;
  saml_assertions: SamlAssertionsTable;
}
