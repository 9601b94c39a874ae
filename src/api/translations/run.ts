/**
 * Running a translation (`runTranslation`, official: 204 "Translation run triggered"): the run is a
 * background job (`translation.run`, ./job.ts) that writes each target language's space through a
 * change request merged by the member who ran it. These are the run's changes of data, each a
 * service function: requesting it, the job starting, opening its change request, its end.
 *
 * Who may run: a member who edits the organization's translation settings, who can read the source
 * space and review each existing target space; making a target space (the first run of a language)
 * needs the right to create where the source space is. 409 when no model is configured, when the
 * settings lack a source or targets, or while a run is queued or running.
 */
import type { AiConfig } from '../../config.js';
import { type Actor, actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { TranslationResultRow, TranslationSettingsRow, UserRow } from '../../db/schema.js';
import { enqueue } from '../../jobs/index.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { authorizeSpace } from '../../permissions/content.js';
import { requireCanEdit, requireOrgMember } from '../../permissions/organization.js';
import { createChangeRequest } from '../change-requests/service.js';
import { createSpace } from '../spaces/service.js';
import {
  findJobState,
  findTranslation,
  listResults,
  putResultSpace,
  setResultChangeRequest,
  setResultRevision,
  setRunState,
} from './repo.js';
import type { Stats } from './schemas.js';
import { recordTranslationEvent } from './service.js';

export const RUN_JOB = 'translation.run';

export interface RunPayload {
  translationId: string;
  /** The member who ran it: the job acts as them. */
  userId: string;
}

/** The space a language is written to, when it still exists (a deleted one is replaced by the next run). */
async function liveTarget(ctx: ServiceContext, result: TranslationResultRow | undefined) {
  if (!result) return null;
  try {
    return (await authorizeSpace(ctx.db, actingUser(ctx).id, result.space_id, 'review', 'write its translation')).row;
  } catch (error) {
    // Deleted: a new space is made. Not visible: the caller must not learn of it, and may not write it.
    if (error instanceof ApiError && error.statusCode === 404) {
      const row = await ctx.db
        .selectFrom('spaces')
        .select('deleted_at')
        .where('id', '=', result.space_id)
        .executeTakeFirst();
      if (!row || row.deleted_at) return null;
      throw conflict(`the ${result.language} translation is written to a space you cannot review`);
    }
    throw error;
  }
}

/** Queues a run: makes the spaces of new target languages, records `translation.run_started`. */
export async function runTranslation(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
  ai: AiConfig | null,
): Promise<void> {
  const user = actingUser(ctx);
  const membership = await requireOrgMember(ctx.db, organizationId, user.id);
  const row = await findTranslation(ctx.db, organizationId, id);
  if (!row) throw notFound(`translation settings ${id} not found`);
  requireCanEdit(membership, 'run translations');
  if (!ai) {
    throw conflict('no AI model is configured on this server (AI_BASE_URL, AI_MODEL): translations run through it');
  }
  if (!row.source_space_id || !row.source_language) {
    throw conflict('the translation has no source: set `source` {space, language} with updateTranslation first');
  }
  const languages = JSON.parse(row.languages) as string[];
  if (languages.length === 0) throw conflict('the translation has no target languages: set `languages` first');
  if (row.job_id && ['queued', 'running'].includes((await findJobState(ctx.db, row.job_id)) ?? '')) {
    throw conflict('a run of this translation is already queued or running');
  }
  let source: Awaited<ReturnType<typeof authorizeSpace>>['row'];
  try {
    source = (await authorizeSpace(ctx.db, user.id, row.source_space_id, 'read', 'translate it')).row;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) {
      throw conflict(`the source space ${row.source_space_id} is gone (or not visible to you): set another source`);
    }
    throw error;
  }
  const results = (await listResults(ctx.db, [row.id])).get(row.id) ?? [];
  const missing: string[] = [];
  for (const language of languages) {
    if (
      !(await liveTarget(
        ctx,
        results.find((r) => r.language === language),
      ))
    )
      missing.push(language);
  }
  await inTransaction(ctx.db, async (trx) => {
    const inTrx = { ...ctx, db: trx };
    for (const language of missing) {
      const title = `${source.title.slice(0, 50 - language.length - 3)} (${language})`;
      const space = await createSpace(inTrx, organizationId, {
        title,
        language,
        ...(source.parent_id ? { parent: source.parent_id } : {}),
      });
      await putResultSpace(trx, row.id, language, space.id);
    }
    const jobId = await enqueue(trx, RUN_JOB, { translationId: row.id, userId: user.id } satisfies RunPayload);
    const queued = await setRunState(trx, row.id, { status: 'pending', job_id: jobId, last_error: null });
    await recordTranslationEvent(trx, ctx, 'translation.run_started', queued ?? row);
  });
}

/** The job takes its run: `running`, unless the settings are gone or another run was requested since. */
export async function startTranslationRun(
  ctx: ServiceContext,
  id: string,
  jobId: string,
): Promise<TranslationSettingsRow | undefined> {
  return inTransaction(ctx.db, (trx) => setRunState(trx, id, { status: 'running' }, jobId), {
    withoutEvent: 'startTranslationRun',
  });
}

/** The actor of a run: the member who requested it (through the job). */
export function runActor(user: UserRow): Actor {
  return { type: 'user', user, tokenId: null, source: 'system' };
}

/**
 * The change request a language's run writes through: the one an interrupted attempt opened, when
 * it is still open, else a new one (remembered in the same transaction).
 */
export async function openRunChangeRequest(
  ctx: ServiceContext,
  translation: TranslationSettingsRow,
  result: TranslationResultRow,
): Promise<string> {
  if (result.change_request_id) {
    const open = await ctx.db
      .selectFrom('change_requests')
      .select('id')
      .where('id', '=', result.change_request_id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open) return open.id;
  }
  return inTransaction(ctx.db, async (trx) => {
    const subject = `Translation "${translation.title}" into ${result.language}`;
    const { changeRequest } = await createChangeRequest({ ...ctx, db: trx }, result.space_id, {
      subject,
    });
    await setResultChangeRequest(trx, translation.id, result.language, changeRequest.id);
    return changeRequest.id;
  });
}

/**
 * The run's end, by the system: `completed` with the revisions merged and the stats of the run, or
 * with `error` (the results of languages merged before the failure are kept). Records
 * `translation.run_completed`. Nothing when another run was requested since.
 */
export async function finishTranslationRun(
  ctx: ServiceContext,
  translation: TranslationSettingsRow,
  jobId: string,
  outcome: { merged: Map<string, string>; pages: number; words: number; seconds: number; error?: string },
): Promise<void> {
  const before = translation.stats ? (JSON.parse(translation.stats) as Stats) : null;
  const stats: Stats = {
    runs: (before?.runs ?? 0) + 1,
    totalWords: (before?.totalWords ?? 0) + outcome.words,
    totalPages: Math.max(before?.totalPages ?? 0, outcome.pages),
    totalDuration: (before?.totalDuration ?? 0) + outcome.seconds,
    latestRunDuration: outcome.seconds,
    latestPages: outcome.pages,
    latestWords: outcome.words,
  };
  await inTransaction(ctx.db, async (trx) => {
    for (const [language, revision] of outcome.merged) await setResultRevision(trx, translation.id, language, revision);
    const done = await setRunState(
      trx,
      translation.id,
      { status: 'completed', last_error: outcome.error ?? null, stats: JSON.stringify(stats) },
      jobId,
    );
    if (done) await recordTranslationEvent(trx, ctx, 'translation.run_completed', done, translation);
  });
}
