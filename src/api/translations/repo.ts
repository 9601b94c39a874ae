import type { DbOrTrx } from '../../core/service.js';
import type { TranslationResultRow, TranslationSettingsRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { type Page, paginate } from '../../lib/paging.js';
import { nowIso } from '../../lib/time.js';

export async function findTranslation(
  db: DbOrTrx,
  organizationId: string,
  id: string,
): Promise<TranslationSettingsRow | undefined> {
  return db
    .selectFrom('translation_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Translation settings in the order they were created. */
export async function listTranslations(
  db: DbOrTrx,
  organizationId: string,
  paging: { page?: string; limit?: number },
): Promise<Page<TranslationSettingsRow>> {
  const q = db
    .selectFrom('translation_settings')
    .selectAll()
    .where('translation_settings.organization_id', '=', organizationId);
  return paginate(
    q,
    [
      { column: 'translation_settings.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'translation_settings.id', direction: 'asc', value: (r) => r.id },
    ],
    paging,
  );
}

export async function createTranslation(
  db: DbOrTrx,
  organizationId: string,
  values: { title: string; languages: string[]; source?: { space: string; language: string } },
): Promise<TranslationSettingsRow> {
  const now = nowIso();
  const row: TranslationSettingsRow = {
    id: newId(),
    organization_id: organizationId,
    title: values.title,
    languages: JSON.stringify(values.languages),
    source_space_id: values.source?.space ?? null,
    source_language: values.source?.language ?? null,
    status: null,
    stats: null,
    last_error: null,
    job_id: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('translation_settings').values(row).execute();
  return row;
}

export async function updateTranslation(
  db: DbOrTrx,
  id: string,
  values: { title: string; languages?: string[]; source?: { space: string; language: string } | null },
): Promise<TranslationSettingsRow> {
  return db
    .updateTable('translation_settings')
    .set({
      title: values.title,
      ...(values.languages ? { languages: JSON.stringify(values.languages) } : {}),
      ...(values.source !== undefined
        ? { source_space_id: values.source?.space ?? null, source_language: values.source?.language ?? null }
        : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteTranslation(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('translation_settings').where('id', '=', id).execute();
}

/** The results of `translationIds`, by translation, in language order. */
export async function listResults(db: DbOrTrx, translationIds: string[]): Promise<Map<string, TranslationResultRow[]>> {
  const byTranslation = new Map<string, TranslationResultRow[]>(translationIds.map((id) => [id, []]));
  if (translationIds.length === 0) return byTranslation;
  const rows = await db
    .selectFrom('translation_results')
    .selectAll()
    .where('translation_id', 'in', translationIds)
    .orderBy('language')
    .execute();
  for (const row of rows) byTranslation.get(row.translation_id)?.push(row);
  return byTranslation;
}

/** Sets (or replaces) the space a language is translated into. */
export async function putResultSpace(db: DbOrTrx, translationId: string, language: string, spaceId: string) {
  await db
    .insertInto('translation_results')
    .values({
      translation_id: translationId,
      language,
      space_id: spaceId,
      revision_id: null,
      change_request_id: null,
      updated_at: nowIso(),
    })
    .onConflict((oc) =>
      oc
        .columns(['translation_id', 'language'])
        .doUpdateSet({ space_id: spaceId, revision_id: null, change_request_id: null, updated_at: nowIso() }),
    )
    .execute();
}

export async function setResultChangeRequest(
  db: DbOrTrx,
  translationId: string,
  language: string,
  changeRequestId: string | null,
) {
  await db
    .updateTable('translation_results')
    .set({ change_request_id: changeRequestId, updated_at: nowIso() })
    .where('translation_id', '=', translationId)
    .where('language', '=', language)
    .execute();
}

export async function setResultRevision(db: DbOrTrx, translationId: string, language: string, revisionId: string) {
  await db
    .updateTable('translation_results')
    .set({ revision_id: revisionId, change_request_id: null, updated_at: nowIso() })
    .where('translation_id', '=', translationId)
    .where('language', '=', language)
    .execute();
}

/** The run's state; `onlyJob`: only while the settings still belong to that job's run (else undefined). */
export async function setRunState(
  db: DbOrTrx,
  id: string,
  values: Partial<Pick<TranslationSettingsRow, 'status' | 'job_id' | 'last_error' | 'stats'>>,
  onlyJob?: string,
): Promise<TranslationSettingsRow | undefined> {
  let q = db.updateTable('translation_settings').set(values).where('id', '=', id);
  if (onlyJob) q = q.where('job_id', '=', onlyJob);
  return q.returningAll().executeTakeFirst();
}

export async function findJobState(db: DbOrTrx, jobId: string): Promise<string | undefined> {
  return (await db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirst())?.state;
}
