import type { Static } from 'typebox';
import type { TranslationSettingsRow } from '../../db/schema.js';
import type { Urls } from '../../lib/urls.js';
import type { Language, TranslationSettings } from './schemas.js';

export function translationLocation(row: TranslationSettingsRow, urls: Urls): string {
  return urls.api(`/orgs/${row.organization_id}/translations/${row.id}`);
}

/** Translation settings as a caller sees them; `canEdit` is their `permissions.edit`. */
export function presentTranslation(
  row: TranslationSettingsRow,
  canEdit: boolean,
  urls: Urls,
): Static<typeof TranslationSettings> {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: JSON.parse(row.languages) as Language[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: { view: true, edit: canEdit },
    urls: { location: translationLocation(row, urls) },
  };
}
