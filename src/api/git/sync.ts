/**
 * The `git.import` and `git.export` jobs. Each reads its operation from `git_sync` (a job whose
 * operation is no longer the space's current one does nothing), unseals the repository URL, does
 * the work through isomorphic-git, and records how it ended. Every failure is recorded with its
 * message stripped of the URL's credentials, and the sealed URL is forgotten either way.
 *
 * Export: the live revision in the Git Sync layout, committed onto `ref` (files outside what the
 * export manages are kept). Import: the layout of `ref` becomes a new live revision, or, with
 * `standalone`, the revision of a new change request (the live content is left alone).
 */
import type { FastifyBaseLogger } from 'fastify';
import { loadRevision, type Snapshot } from '../../content/store.js';
import { decryptSecret, secretsKey } from '../../core/secrets.js';
import { type ServiceContext, SYSTEM_ACTOR } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import type { GitSyncRow, SpaceRow } from '../../db/schema.js';
import { exportLayout } from '../../git/export-layout.js';
import { safeDirectory } from '../../git/export-paths.js';
import { guardedGitHttp } from '../../git/http.js';
import { importLayout } from '../../git/import-layout.js';
import { type GitJobPayload, urlAad } from '../../git/jobs.js';
import { ASSETS, CONFIG_FILE, cleanDir } from '../../git/layout.js';
import { GIT_LIMITS } from '../../git/limits.js';
import { fullRef, pushToRemote, type RemoteTarget, readRemote } from '../../git/remote.js';
import {
  type Blob,
  findGitSync,
  findRevisionGit,
  type OperationOptions,
  redactText,
  redactUrl,
} from '../../git/state.js';
import type { App } from '../../http/app.js';
import type { JobHandler } from '../../jobs/index.js';
import { findSpaceRow } from '../../services/live.js';
import { finishGitOperation, recordGitExport, recordGitImport } from './service.js';

/** The jobs change data as the system, through the same service functions as the API. */
function systemContext(app: App): ServiceContext {
  return { db: app.db, urls: app.urls, actor: SYSTEM_ACTOR };
}

async function liveSnapshot(db: Db, spaceId: string): Promise<{ space: SpaceRow; snapshot: Snapshot }> {
  const space = await findSpaceRow(db, spaceId);
  if (!space) throw new Error(`space ${spaceId} is gone`);
  const snapshot = await loadRevision(db, space, space.revision_id);
  if (!snapshot) throw new Error(`live revision ${space.revision_id} of space ${space.id} is missing`);
  return { space, snapshot };
}

function blobsOf(paths: Map<string, string>, oids: (path: string) => string | undefined): Record<string, Blob> {
  const out: Record<string, Blob> = {};
  for (const [id, path] of paths) {
    const oid = oids(path);
    if (oid) out[id] = { oid, path };
  }
  return out;
}

async function runExport(app: App, row: GitSyncRow, target: RemoteTarget, options: OperationOptions) {
  const { space, snapshot } = await liveSnapshot(app.db, row.space_id);
  // The folder the layout is written in, as exportLayout writes it (no `..`, nothing absolute).
  const dir = safeDirectory(cleanDir(row.project_directory));
  const layout = await exportLayout(app.db, snapshot, { projectDirectory: dir });
  const prefix = dir ? `${dir}/` : '';
  const message = options.commitMessage ?? 'Export from Bindery';
  const result = await pushToRemote({
    ...target,
    files: layout.files,
    // What the export writes: Markdown, the configuration, the assets; other files of the repository stay.
    managed: (path) =>
      path.startsWith(prefix) &&
      (/\.md$/i.test(path) || path === `${prefix}${CONFIG_FILE}` || path.startsWith(`${prefix}${ASSETS}/`)),
    message,
    author: options.author,
    force: options.force === true,
  });
  const oid = (path: string) => result.blobs.get(path);
  await recordGitExport(systemContext(app), {
    spaceId: space.id,
    revisionId: snapshot.id,
    git: {
      commit: { oid: result.commit, message, ref: fullRef(row.ref), createdByGitBook: true },
      pages: blobsOf(layout.pagePaths, oid),
      files: blobsOf(layout.filePaths, oid),
      reusableContents: blobsOf(layout.includePaths, oid),
    },
  });
  return { commit: result.commit, revisionId: snapshot.id };
}

async function runImport(app: App, row: GitSyncRow, target: RemoteTarget, options: OperationOptions) {
  const dir = cleanDir(row.project_directory);
  const remote = await readRemote(target, dir);
  const { space, snapshot: live } = await liveSnapshot(app.db, row.space_id);
  // Include files keep the names the repository gave them: the last export or import recorded them.
  const recorded = (await findRevisionGit(app.db, live.id))?.reusableContents ?? {};
  const layout = await importLayout(app.db, remote.files, {
    projectDirectory: dir,
    existing: live,
    existingIncludes: new Map(Object.entries(recorded).map(([id, blob]) => [blob.path, id])),
  });
  const oid = (path: string) => remote.blobs.get(path);
  const { revision, changeRequest } = await recordGitImport(systemContext(app), {
    spaceId: space.id,
    live,
    content: layout,
    standalone: options.standalone === true,
    userId: options.userId,
    ref: row.ref,
    git: {
      commit: { oid: remote.commit, message: remote.message, ref: fullRef(row.ref), createdByGitBook: false },
      pages: blobsOf(layout.pagePaths, oid),
      files: blobsOf(layout.filePaths, oid),
      reusableContents: blobsOf(layout.includePaths, oid),
    },
  });
  return { commit: remote.commit, revisionId: revision.id, changeRequestId: changeRequest?.id };
}

/** The handler of the `git.import` or `git.export` job (registered in src/background.ts). */
export function gitJob(app: App, direction: 'import' | 'export'): JobHandler<GitJobPayload> {
  return async (payload, { signal, log }) => {
    const row = await findGitSync(app.db, payload.spaceId);
    if (!row || row.operation_id !== payload.operationId || row.state !== 'running' || !row.sealed_url) {
      log.info({ spaceId: payload.spaceId }, 'Git operation replaced or ended since; nothing to do');
      return;
    }
    const key = await secretsKey(app.db, app.config.secretsKey, log as FastifyBaseLogger);
    const url = decryptSecret(key, row.sealed_url, urlAad(row.space_id, row.operation_id));
    const options = JSON.parse(row.options) as OperationOptions;
    const target: RemoteTarget = {
      url,
      ref: row.ref,
      http: guardedGitHttp({
        allowPrivate: app.config.fetchAllowPrivate,
        timeoutMs: GIT_LIMITS.requestMs,
        maxBytes: GIT_LIMITS.responseBytes,
        signal,
      }),
    };
    const context = { spaceId: row.space_id, repository: redactUrl(url), ref: row.ref, direction };
    try {
      const outcome =
        direction === 'export'
          ? await runExport(app, row, target, options)
          : await runImport(app, row, target, options);
      await finishGitOperation(systemContext(app), row.space_id, row.operation_id, { state: 'success', ...outcome });
      log.info({ ...context, commit: outcome.commit }, `Git ${direction} done`);
    } catch (error) {
      // Shutting down: the job goes back to the queue and runs again (the sealed URL is kept for it).
      if (signal.aborted) throw error;
      const message = redactText(error instanceof Error ? error.message : String(error), url);
      await finishGitOperation(systemContext(app), row.space_id, row.operation_id, {
        state: 'failure',
        error: message,
      });
      log.warn({ ...context, error: message }, `Git ${direction} failed`);
    }
  };
}
