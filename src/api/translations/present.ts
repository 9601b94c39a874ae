import type { Static } from 'typebox';
import type { TranslationResultRow, TranslationSettingsRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import type { Language, Stats, TRANSLATION_STATUSES, TranslationSettings } from './schemas.js';

export function translationLocation(row: TranslationSettingsRow, urls: Urls): string {
  return urls.api(`/orgs/${row.organization_id}/translations/${row.id}`);
}

/**
 * Translation settings as a caller sees them; `canEdit` is their `permissions.edit`. `results` are
 * the target languages a run has written (a space made for a language shows once its first run merged).
 */
export function presentTranslation(
  row: TranslationSettingsRow,
  results: TranslationResultRow[],
  canEdit: boolean,
  urls: Urls,
): Static<typeof TranslationSettings> {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: JSON.parse(row.languages) as Language[],
    ...(row.source_space_id && row.source_language
      ? { source: { space: row.source_space_id, language: row.source_language as Language } }
      : {}),
    ...(row.status ? { status: row.status as (typeof TRANSLATION_STATUSES)[number] } : {}),
    ...(row.last_error ? { error: row.last_error } : {}),
    results: results.flatMap((r) =>
      r.revision_id ? [{ space: r.space_id, revision: r.revision_id, language: r.language as Language }] : [],
    ),
    ...(row.stats ? { stats: JSON.parse(row.stats) as Stats } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: { view: true, edit: canEdit },
    urls: { location: translationLocation(row, urls) },
  };
}
