/**
 * Every change Git Sync makes: queueing an import or export (a user), and what the jobs record when
 * they run (the system, `SYSTEM_ACTOR`): the imported revision (live, or in a new change request),
 * the commit an export wrote, how an operation ended.
 *
 * Who queues: export needs `edit` on the space; import into the live content replaces it, so it
 * needs `review` (as a merge does), and a `standalone` import (into a new change request) `edit`.
 */

import { type Snapshot, writeRevision } from '../../content/store.js';
import { encryptSecret } from '../../core/secrets.js';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import type { ChangeRequestRow } from '../../db/schema.js';
import { recordEvent } from '../../events/record.js';
import { EXPORT_JOB, type GitJobPayload, IMPORT_JOB, urlAad } from '../../git/jobs.js';
import { cleanDir } from '../../git/layout.js';
import {
  findGitSync,
  finishOperation,
  type GitProvider,
  presentGitSync,
  type RevisionGit,
  recordRevisionGit,
  redactUrl,
  startOperation,
} from '../../git/state.js';
import { enqueue } from '../../jobs/queue.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { assertFetchableUrl, FetchError } from '../../lib/fetch.js';
import { authorizeSpace } from '../../permissions/content.js';
import { advanceLive, findSpaceRow } from '../../services/live.js';
import { recordChangeRequestEvent, recordContentUpdated } from '../change-requests/events.js';
import { advanceChangeRequest } from '../change-requests/repo.js';
import { createChangeRequest } from '../change-requests/service.js';

export interface GitOperationInput {
  url: string;
  ref: string;
  repoTreeURL?: string;
  repoProjectDirectory?: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
}

/**
 * Who hosts the repository: `gitInfo.provider` when the caller says, else GitHub or GitLab when the
 * host name says so, else `git` (any other Git server: no provider, so no web edit links). The
 * official enum has no value for a plain Git server, and claiming GitHub for one would be false.
 */
function providerOf(body: GitOperationInput, url: URL): GitProvider {
  if (body.gitInfo?.provider) return body.gitInfo.provider;
  if (/(^|\.)github\b/i.test(url.hostname)) return 'github';
  if (/(^|\.)gitlab\b/i.test(url.hostname)) return 'gitlab';
  return 'git';
}

/** Checks the URL before queueing (the job checks every connection again); messages never echo credentials. */
async function checkUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  try {
    return await assertFetchableUrl(raw, allowPrivate);
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    const reason =
      error.code === 'FETCH_FORBIDDEN_ADDRESS'
        ? 'must be an http(s) URL of a public address'
        : 'is not a valid http(s) URL';
    throw badRequest(`body/url ${reason}: ${redactUrl(raw)}`);
  }
}

/**
 * Records `space.gitsync.started` or `space.gitsync.completed` (GitBook's `space_gitsync_started`
 * and `space_gitsync_completed`) with the space's Git Sync state as `getGitInfo` presents it (the
 * repository URL without credentials).
 */
async function recordGitSyncEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'space.gitsync.started' | 'space.gitsync.completed',
  space: { id: string; organization_id: string; title: string },
): Promise<void> {
  const row = await findGitSync(trx as Db, space.id);
  if (!row) throw new Error(`space ${space.id} has no Git Sync state`);
  await recordEvent(trx, ctx, {
    type,
    organizationId: space.organization_id,
    target: { object: 'space', id: space.id, label: space.title },
    data: { object: { object: 'git-sync', ...presentGitSync(row) } },
  });
}

/**
 * Starts an import or export of the space: records the running operation (409 while another runs)
 * with its URL sealed, and queues its job in the same transaction. The caller wakes the worker.
 */
export async function startGitOperation(
  ctx: ServiceContext,
  spaceId: string,
  direction: 'import' | 'export',
  body: GitOperationInput,
  options: { allowPrivate: boolean; secretsKey: () => Promise<Buffer> },
): Promise<{ spaceId: string; operationId: string }> {
  const user = actingUser(ctx);
  const needed = direction === 'import' && !body.standalone ? 'review' : 'edit';
  const { row: space } = await authorizeSpace(ctx.db, user.id, spaceId, needed, `${direction} it with Git`);
  const url = await checkUrl(body.url, options.allowPrivate);
  if (!/^(refs\/heads\/)?[A-Za-z0-9._/-]+$/.test(body.ref) || body.ref.includes('..')) {
    throw badRequest('body/ref must be a branch ref such as "refs/heads/main"');
  }
  const key = await options.secretsKey();
  const operationId = await inTransaction(ctx.db, async (trx) => {
    const id = await startOperation(trx, {
      spaceId: space.id,
      direction,
      url: body.url,
      sealedUrl: (op) => encryptSecret(key, body.url, urlAad(space.id, op)),
      ref: body.ref,
      provider: providerOf(body, url),
      treeUrl: body.repoTreeURL ?? body.gitInfo?.url ?? null,
      projectDirectory: cleanDir(body.repoProjectDirectory) || null,
      options: {
        ...(body.commitMessage !== undefined ? { commitMessage: body.commitMessage } : {}),
        ...(body.force !== undefined ? { force: body.force } : {}),
        ...(body.standalone !== undefined ? { standalone: body.standalone } : {}),
        author: { name: user.display_name, email: user.email },
        userId: user.id,
      },
    });
    await enqueue(trx, direction === 'import' ? IMPORT_JOB : EXPORT_JOB, {
      spaceId: space.id,
      operationId: id,
    } satisfies GitJobPayload);
    await recordGitSyncEvent(trx, ctx, 'space.gitsync.started', space);
    return id;
  });
  return { spaceId: space.id, operationId };
}

/** What an import read from the repository, ready to become a revision. */
export interface GitImport {
  spaceId: string;
  /** The live revision the import was laid over. */
  live: Snapshot;
  content: Pick<Snapshot, 'pages' | 'files' | 'reusableContents'>;
  /** Into a new change request (the live content is left alone), created for `userId`. */
  standalone: boolean;
  userId: string;
  ref: string;
  git: RevisionGit;
}

/**
 * Records an import (the system, for the user who queued it): a new revision that becomes live
 * (only if the live content did not move meanwhile, and re-indexed) or the first revision of a new
 * change request, with the commit and blobs it came from.
 */
export async function recordGitImport(
  ctx: ServiceContext,
  input: GitImport,
): Promise<{ revision: Snapshot; changeRequest: ChangeRequestRow | null }> {
  const space = await findSpaceRow(ctx.db, input.spaceId);
  if (!space) throw notFound(`space ${input.spaceId} not found`);
  const changeRequest = input.standalone
    ? (await createChangeRequest(ctx, space.id, { subject: `Import from Git (${input.ref})`, createdBy: input.userId }))
        .changeRequest
    : null;
  const revision = await inTransaction(ctx.db, async (trx) => {
    const written = await writeRevision(trx, {
      spaceId: space.id,
      parents: [input.live.id],
      type: 'edits',
      pages: input.content.pages,
      files: input.content.files,
      reusableContents: input.content.reusableContents,
      createdBy: input.userId,
    });
    if (changeRequest) {
      await advanceChangeRequest(trx, changeRequest.id, changeRequest.revision_id, written.id);
      await recordChangeRequestEvent(trx, ctx, 'change_request.updated', space.id, changeRequest.id);
    } else if (!(await advanceLive(trx, space.id, input.live.id, written.id, written.createdAt))) {
      throw new Error('the live content changed during the import; run it again');
    } else {
      await recordContentUpdated(trx, ctx, space, written.id, input.live, written);
    }
    await recordRevisionGit(trx, { revisionId: written.id, spaceId: space.id, ...input.git });
    return written;
  });
  return { revision, changeRequest };
}

/** Records the commit an export wrote the revision to (the system). */
export async function recordGitExport(
  ctx: ServiceContext,
  input: { spaceId: string; revisionId: string; git: RevisionGit },
): Promise<void> {
  await inTransaction(
    ctx.db,
    (trx) => recordRevisionGit(trx, { revisionId: input.revisionId, spaceId: input.spaceId, ...input.git }),
    { withoutEvent: 'recordGitExport' },
  );
}

/** Ends the space's current operation (the system) and forgets its sealed URL; records `space.gitsync.completed`. */
export async function finishGitOperation(
  ctx: ServiceContext,
  spaceId: string,
  operationId: string,
  outcome: Parameters<typeof finishOperation>[3],
): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    await finishOperation(trx, spaceId, operationId, outcome);
    const space = await findSpaceRow(trx, spaceId);
    // A space deleted while its job ran: its organization's log has nothing to attach it to.
    if (space) await recordGitSyncEvent(trx, ctx, 'space.gitsync.completed', space);
  });
}
