/** Table types of users, organizations, their members and teams, API tokens. Storage conventions: `../schema.ts`. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Bool } from './types.js';

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
  /** What the user named it (tokens made through the API); null for older ones. */
  label: string | null;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secret_hash: string;
  /** JSON string[]; null means every right of the user. */
  scopes: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** Invite links of an organization (migration 0024): the secret is kept hashed and sealed, never plain. */
export interface InviteLinksTable {
  /** The row's own reference; events name the invite by it. */
  ref: string;
  organization_id: string;
  /** SHA-256 of the secret (the invite's id in the API), hex. */
  secret_hash: string;
  /** The secret, sealed with the server's secrets key (src/core/secrets.ts), bound to `ref`. */
  sealed_secret: string;
  /** null: joins as a guest. */
  role: string | null;
  created_by: string | null;
  created_at: string;
  /** null: never expires. */
  expires_at: string | null;
  /** null: unlimited. */
  max_uses: number | null;
  uses: number;
  /** `space` or `collection` for an invite to one (then `role` is the level granted there); null: the organization. */
  target_type: string | null;
  target_id: string | null;
}

export type InviteLinkRow = Selectable<InviteLinksTable>;
export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
export type MemberRow = Selectable<MembersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewApiToken = Insertable<ApiTokensTable>;
