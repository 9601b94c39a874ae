/**
 * The record of Git Sync operations: one `git_sync` row per space (its repository, without
 * credentials, and its last operation: direction, state, when, error, commit), and `revision_git`
 * rows naming the commit a revision was exported to or imported from.
 *
 * Credentials: the URL with credentials exists only sealed (AES-GCM, bound to the space and the
 * operation) in `git_sync.sealed_url` while the operation runs, and is cleared when it ends. What
 * is stored, logged and returned is the URL without them ({@link redactUrl}).
 */
import { invalidate, TtlCache } from '../core/cache.js';
import { afterCommit } from '../core/service.js';
import type { Db } from '../db/database.js';
import type { GitSyncRow, RevisionGitRow } from '../db/schema.js';
import { conflict } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';

/** How long an operation may run before it counts as timed out (and another may start). */
export const OPERATION_TIMEOUT_MS = 10 * 60_000;

export type Direction = 'import' | 'export';

/** The official providers, and `git` (a Bindery extension): a plain Git server, hosted by neither. */
export type GitProvider = 'github' | 'gitlab' | 'git';

export interface OperationOptions {
  commitMessage?: string;
  force?: boolean;
  standalone?: boolean;
  author: { name: string; email: string };
  userId: string;
}

/** The URL without `user:password@`. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return raw.replace(/\/\/[^/@]*@/, '//');
  }
}

/** `text` with every credential of `raw` (user info, password, encoded or not) replaced. */
export function redactText(text: string, raw: string): string {
  let out = text;
  try {
    const url = new URL(raw);
    for (const secret of [url.password, url.username]) {
      if (!secret) continue;
      for (const form of new Set([secret, decodeURIComponent(secret)])) out = out.split(form).join('***');
    }
  } catch {
    // Not a URL: nothing to redact.
  }
  return out;
}

/** `owner/name` of a repository URL. */
export function repoName(url: string): string {
  try {
    return new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  } catch {
    return url;
  }
}

export function effectiveState(row: Pick<GitSyncRow, 'state' | 'started_at'>): string {
  if (row.state === 'running' && Date.now() - Date.parse(row.started_at) > OPERATION_TIMEOUT_MS) return 'timeout';
  return row.state;
}

export interface StartInput {
  spaceId: string;
  direction: Direction;
  url: string;
  sealedUrl: (operationId: string) => string;
  ref: string;
  provider: string;
  treeUrl: string | null;
  projectDirectory: string | null;
  options: OperationOptions;
}

/** Records a new running operation; 409 while another one of the space is still running. */
export async function startOperation(db: Db, input: StartInput): Promise<string> {
  const existing = await db.selectFrom('git_sync').selectAll().where('space_id', '=', input.spaceId).executeTakeFirst();
  if (existing && effectiveState(existing) === 'running') {
    throw conflict(`a Git ${existing.direction} of space ${input.spaceId} is still running`);
  }
  const operationId = newId();
  const now = nowIso();
  const values = {
    installation_id: existing?.installation_id ?? newId(),
    provider: input.provider,
    repo_url: redactUrl(input.url),
    tree_url: input.treeUrl,
    ref: input.ref,
    project_directory: input.projectDirectory,
    operation_id: operationId,
    direction: input.direction,
    state: 'running',
    started_at: now,
    ended_at: null,
    error: null,
    sealed_url: input.sealedUrl(operationId),
    options: JSON.stringify(input.options),
    commit_oid: null,
    revision_id: null,
    change_request_id: null,
    updated_at: now,
  };
  if (existing) {
    // Only if no other request started one meanwhile (compare-and-set on the operation id).
    const updated = await db
      .updateTable('git_sync')
      .set(values)
      .where('space_id', '=', input.spaceId)
      .where('operation_id', '=', existing.operation_id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw conflict(`a Git operation of space ${input.spaceId} just started`);
  } else {
    await db
      .insertInto('git_sync')
      .values({ space_id: input.spaceId, ...values })
      .execute();
  }
  return operationId;
}

export async function findGitSync(db: Db, spaceId: string): Promise<GitSyncRow | undefined> {
  return db.selectFrom('git_sync').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

export async function gitSyncOf(db: Db, spaceIds: string[]): Promise<Map<string, GitSyncRow>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await db.selectFrom('git_sync').selectAll().where('space_id', 'in', spaceIds).execute();
  return new Map(rows.map((row) => [row.space_id, row]));
}

/** Ends an operation (only the one that is current) and forgets its sealed credentials. */
export async function finishOperation(
  db: Db,
  spaceId: string,
  operationId: string,
  outcome: {
    state: 'success' | 'failure';
    error?: string;
    commit?: string;
    revisionId?: string;
    changeRequestId?: string;
  },
): Promise<void> {
  await db
    .updateTable('git_sync')
    .set({
      state: outcome.state,
      ended_at: nowIso(),
      error: outcome.error ?? null,
      sealed_url: null,
      commit_oid: outcome.commit ?? null,
      revision_id: outcome.revisionId ?? null,
      change_request_id: outcome.changeRequestId ?? null,
      updated_at: nowIso(),
    })
    .where('space_id', '=', spaceId)
    .where('operation_id', '=', operationId)
    .execute();
}

export interface Blob {
  oid: string;
  path: string;
}

export interface RevisionGit {
  commit: { oid: string; message: string; ref: string; createdByGitBook: boolean };
  pages: Record<string, Blob>;
  files: Record<string, Blob>;
  /** Reusable contents' include files (absent in what was recorded before they were carried). */
  reusableContents?: Record<string, Blob>;
}

export async function recordRevisionGit(
  db: Db,
  input: { revisionId: string; spaceId: string } & RevisionGit,
): Promise<void> {
  const values = {
    space_id: input.spaceId,
    commit_oid: input.commit.oid,
    message: input.commit.message,
    ref: input.commit.ref,
    exported: input.commit.createdByGitBook ? 1 : 0,
    blobs: JSON.stringify({ pages: input.pages, files: input.files, reusableContents: input.reusableContents ?? {} }),
    created_at: nowIso(),
  };
  await db
    .insertInto('revision_git')
    .values({ revision_id: input.revisionId, ...values })
    .onConflict((oc) => oc.column('revision_id').doUpdateSet(values))
    .execute();
  const tag = revisionGitTag(input.revisionId);
  invalidate(tag);
  afterCommit(db, () => invalidate(tag));
}

/**
 * What {@link findRevisionGit} found for each revision (null: nothing recorded), for 10 s: every
 * read of a page's content with metadata asks it. {@link recordRevisionGit} drops its revision's entry.
 */
const revisionGits = new TtlCache<RevisionGit | null>(10_000, 2_000);
const revisionGitTag = (revisionId: string) => `revision-git:${revisionId}`;

export async function findRevisionGit(db: Db, revisionId: string): Promise<RevisionGit | undefined> {
  const tag = revisionGitTag(revisionId);
  if (!db.isTransaction) {
    const cached = revisionGits.get(tag);
    if (cached !== undefined) return cached ?? undefined;
  }
  const readAt = Date.now();
  const found = await loadRevisionGit(db, revisionId);
  if (!db.isTransaction) revisionGits.set(tag, found ?? null, [tag], readAt);
  return found;
}

async function loadRevisionGit(db: Db, revisionId: string): Promise<RevisionGit | undefined> {
  const row: RevisionGitRow | undefined = await db
    .selectFrom('revision_git')
    .selectAll()
    .where('revision_id', '=', revisionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const blobs = JSON.parse(row.blobs) as Pick<RevisionGit, 'pages' | 'files' | 'reusableContents'>;
  return {
    commit: { oid: row.commit_oid, message: row.message, ref: row.ref, createdByGitBook: row.exported === 1 },
    ...blobs,
  };
}

/** The official `GitSyncState` of a space's connection. */
export function presentGitSync(row: GitSyncRow) {
  const state = effectiveState(row);
  return {
    repoName: repoName(row.repo_url),
    installationStatus: 'active' as const,
    installationProvider: row.provider as GitProvider,
    installationId: row.installation_id,
    url: row.tree_url ?? row.repo_url,
    operation: {
      state: state as 'running' | 'failure' | 'success' | 'timeout',
      direction: row.direction as Direction,
      startedAt: row.started_at,
      ...(row.ended_at ? { endedAt: row.ended_at } : {}),
      ...(row.error ? { error: row.error } : state === 'timeout' ? { error: 'the operation did not end in time' } : {}),
    },
    operationTimeout: OPERATION_TIMEOUT_MS,
    updatedAt: row.updated_at,
  };
}
