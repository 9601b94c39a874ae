import type { DbOrTrx } from '../../core/service.js';
import type { TranslationSettingsRow } from '../../db/schema.js';
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
  values: { title: string; languages: string[] },
): Promise<TranslationSettingsRow> {
  const now = nowIso();
  const row: TranslationSettingsRow = {
    id: newId(),
    organization_id: organizationId,
    title: values.title,
    languages: JSON.stringify(values.languages),
    source_space_id: null,
    source_language: null,
    status: null,
    stats: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('translation_settings').values(row).execute();
  return row;
}

export async function updateTranslation(
  db: DbOrTrx,
  id: string,
  values: { title: string; languages?: string[] },
): Promise<TranslationSettingsRow> {
  return db
    .updateTable('translation_settings')
    .set({
      title: values.title,
      ...(values.languages ? { languages: JSON.stringify(values.languages) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteTranslation(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('translation_settings').where('id', '=', id).execute();
}
