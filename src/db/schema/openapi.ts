/** Table types of OpenAPI specifications and their versions; translation settings. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

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
  /** `private` or `public`. */
  visibility: string;
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
  /** The entry document exactly as submitted or fetched; null for versions stored before it was kept. */
  raw_text: string | null;
  /** `json` or `yaml` (with raw_text). */
  raw_format: string | null;
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
  /** The official TranslationSource: the space translated and its language (both or neither). */
  source_space_id: string | null;
  source_language: string | null;
  /** The last run's TranslationStatus (`pending`, `running`, `completed`); null: never run. */
  status: string | null;
  /** JSON of the official `Translation.stats`; null: never run. */
  stats: string | null;
  /** Why the last run failed; null when it succeeded or none ran. */
  last_error: string | null;
  /** The job of the last run requested. */
  job_id: string | null;
}

/** Per target language of a translation: the space it writes to and the revision of its last run. */
export interface TranslationResultsTable {
  translation_id: string;
  language: string;
  space_id: string;
  revision_id: string | null;
  /** The change request the current run writes through (null once merged). */
  change_request_id: string | null;
  updated_at: string;
}

export type OpenapiSpecRow = Selectable<OpenapiSpecsTable>;
export type OpenapiSpecVersionRow = Selectable<OpenapiSpecVersionsTable>;
export type TranslationSettingsRow = Selectable<TranslationSettingsTable>;
export type TranslationResultRow = Selectable<TranslationResultsTable>;
