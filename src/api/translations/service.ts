/**
 * Every change of an organization's translation settings: create, update, delete. Members who
 * edit the organization's content settings make them (`canEdit`, src/permissions); other members
 * get 403, and whoever does not see the organization 404.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { TranslationResultRow, TranslationSettingsRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import { authorizeSpace } from '../../permissions/content.js';
import { canEdit, requireCanEdit, requireOrgMember } from '../../permissions/organization.js';
import { presentTranslation } from './present.js';
import { createTranslation, deleteTranslation, findTranslation, listResults, updateTranslation } from './repo.js';

/** Settings after a change, with their results and the caller's `permissions.edit` on them. */
export interface ChangedSettings {
  row: TranslationSettingsRow;
  results: TranslationResultRow[];
  canEdit: boolean;
}

type Source = { space: string; language: string };

/**
 * A source must be a space of the organization the caller can read (400 naming the field
 * otherwise, without saying whether it exists), written in a language that is not a target.
 */
async function checkSource(
  ctx: ServiceContext,
  organizationId: string,
  source: Source | null | undefined,
  languages: string[],
): Promise<void> {
  if (!source) return;
  try {
    const { row } = await authorizeSpace(ctx.db, actingUser(ctx).id, source.space, 'read', 'translate it');
    if (row.organization_id !== organizationId) throw notFound('elsewhere');
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) {
      throw badRequest(`body/source/space: space ${source.space} not found in the organization`);
    }
    throw error;
  }
  if (languages.includes(source.language)) {
    throw badRequest(`body/languages: ${source.language} is the source's language, it cannot be a target too`);
  }
}

async function existing(ctx: ServiceContext, organizationId: string, id: string, action: string) {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const row = await findTranslation(ctx.db, organizationId, id);
  if (!row) throw notFound(`translation settings ${id} not found`);
  requireCanEdit(membership, action);
  return { row, membership };
}

/** Records `translation.created|updated|deleted` with the settings as their editors see them. */
export async function recordTranslationEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type:
    | 'translation.created'
    | 'translation.updated'
    | 'translation.deleted'
    | 'translation.run_started'
    | 'translation.run_completed',
  row: TranslationSettingsRow,
  before?: TranslationSettingsRow,
) {
  const results = (await listResults(trx, [row.id])).get(row.id) ?? [];
  const object = presentTranslation(row, results, true, ctx.urls);
  const previous = before
    ? { previous: previousValues(presentTranslation(before, results, true, ctx.urls), object) }
    : {};
  await recordEvent(trx, ctx, {
    type,
    organizationId: row.organization_id,
    target: { object: 'translation', id: row.id, label: row.title },
    data: { object, ...previous },
  });
}

export async function createTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  input: { title: string; languages?: string[]; source?: Source },
): Promise<ChangedSettings> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireCanEdit(membership, 'create translation settings');
  const values = { title: input.title, languages: input.languages ?? [], source: input.source };
  await checkSource(ctx, organizationId, input.source, values.languages);
  const row = await inTransaction(ctx.db, async (trx) => {
    const created = await createTranslation(trx, organizationId, values);
    await recordTranslationEvent(trx, ctx, 'translation.created', created);
    return created;
  });
  return { row, results: [], canEdit: canEdit(membership) };
}

/** Renames the settings and, when given, replaces their languages. */
export async function updateTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
  input: { title: string; languages?: string[]; source?: Source | null },
): Promise<ChangedSettings> {
  const { row, membership } = await existing(ctx, organizationId, id, 'change translation settings');
  const languages = input.languages ?? (JSON.parse(row.languages) as string[]);
  const source =
    input.source === undefined && row.source_space_id && row.source_language
      ? { space: row.source_space_id, language: row.source_language }
      : input.source;
  // The source is checked when it changes; a kept one only against the new languages.
  if (input.source !== undefined) await checkSource(ctx, organizationId, input.source, languages);
  else if (source && languages.includes(source.language)) {
    throw badRequest(`body/languages: ${source.language} is the source's language, it cannot be a target too`);
  }
  const updated = await inTransaction(ctx.db, async (trx) => {
    const after = await updateTranslation(trx, row.id, input);
    await recordTranslationEvent(trx, ctx, 'translation.updated', after, row);
    return after;
  });
  const results = (await listResults(ctx.db, [row.id])).get(row.id) ?? [];
  return { row: updated, results, canEdit: canEdit(membership) };
}

export async function deleteTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
): Promise<void> {
  const { row } = await existing(ctx, organizationId, id, 'delete translation settings');
  await inTransaction(ctx.db, async (trx) => {
    await deleteTranslation(trx, row.id);
    await recordTranslationEvent(trx, ctx, 'translation.deleted', row);
  });
}
