/** Table types of integrations, their images and installations. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';
import type { Bool } from './types.js';

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

export type IntegrationRow = Selectable<IntegrationsTable>;
export type IntegrationInstallationRow = Selectable<IntegrationInstallationsTable>;
export type IntegrationSpaceInstallationRow = Selectable<IntegrationSpaceInstallationsTable>;
