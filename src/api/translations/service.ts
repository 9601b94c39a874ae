/**
 * Every change of an organization's translation settings: create, update, delete. Members who
 * edit the organization's content settings make them (`canEdit`, src/permissions); other members
 * get 403, and whoever does not see the organization 404.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { TranslationSettingsRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { notFound } from '../../lib/errors.js';
import { canEdit, requireCanEdit, requireOrgMember } from '../../permissions/organization.js';
import { presentTranslation } from './present.js';
import { createTranslation, deleteTranslation, findTranslation, updateTranslation } from './repo.js';

/** Settings after a change, with the caller's `permissions.edit` on them. */
export interface ChangedSettings {
  row: TranslationSettingsRow;
  canEdit: boolean;
}

async function existing(ctx: ServiceContext, organizationId: string, id: string, action: string) {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  const row = await findTranslation(ctx.db, organizationId, id);
  if (!row) throw notFound(`translation settings ${id} not found`);
  requireCanEdit(membership, action);
  return { row, membership };
}

/** Records `translation.created|updated|deleted` with the settings as their editors see them. */
async function recordTranslationEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'translation.created' | 'translation.updated' | 'translation.deleted',
  row: TranslationSettingsRow,
  before?: TranslationSettingsRow,
) {
  const object = presentTranslation(row, true, ctx.urls);
  const previous = before ? { previous: previousValues(presentTranslation(before, true, ctx.urls), object) } : {};
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
  input: { title: string; languages?: string[] },
): Promise<ChangedSettings> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireCanEdit(membership, 'create translation settings');
  const values = { title: input.title, languages: input.languages ?? [] };
  const row = await inTransaction(ctx.db, async (trx) => {
    const created = await createTranslation(trx, organizationId, values);
    await recordTranslationEvent(trx, ctx, 'translation.created', created);
    return created;
  });
  return { row, canEdit: canEdit(membership) };
}

/** Renames the settings and, when given, replaces their languages. */
export async function updateTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
  input: { title: string; languages?: string[] },
): Promise<ChangedSettings> {
  const { row, membership } = await existing(ctx, organizationId, id, 'change translation settings');
  const updated = await inTransaction(ctx.db, async (trx) => {
    const after = await updateTranslation(trx, row.id, input);
    await recordTranslationEvent(trx, ctx, 'translation.updated', after, row);
    return after;
  });
  return { row: updated, canEdit: canEdit(membership) };
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
