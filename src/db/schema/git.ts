/** Table types of Git Sync state and the commits revisions map to. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

/** A space's Git Sync connection and its last operation (one row per space). */
export interface GitSyncTable {
  space_id: string;
  installation_id: string;
  /** `github`, `gitlab` (the official enum) or `git` (a plain Git server): `gitInfo.provider`, else from the host. */
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

export type GitSyncRow = Selectable<GitSyncTable>;
export type RevisionGitRow = Selectable<RevisionGitTable>;
