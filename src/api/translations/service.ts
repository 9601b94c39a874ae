/**
 * Every change of an organization's translation settings: create, update, delete. Members who
 * edit the organization's content settings make them (`canEdit`, src/permissions); other members
 * get 403, and whoever does not see the organization 404.
 */
import { notFound } from '../../core/errors.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { TranslationSettingsRow } from '../../db/schema.js';
import { canEdit, requireCanEdit, requireOrgMember } from '../../permissions/organization.js';
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

export async function createTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  input: { title: string; languages?: string[] },
): Promise<ChangedSettings> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  requireCanEdit(membership, 'create translation settings');
  const values = { title: input.title, languages: input.languages ?? [] };
  const row = await inTransaction(ctx.db, (trx) => createTranslation(trx, organizationId, values));
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
  const updated = await inTransaction(ctx.db, (trx) => updateTranslation(trx, row.id, input));
  return { row: updated, canEdit: canEdit(membership) };
}

export async function deleteTranslationSettings(
  ctx: ServiceContext,
  organizationId: string,
  id: string,
): Promise<void> {
  const { row } = await existing(ctx, organizationId, id, 'delete translation settings');
  await inTransaction(ctx.db, (trx) => deleteTranslation(trx, row.id));
}
