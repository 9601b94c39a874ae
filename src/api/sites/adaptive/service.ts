/**
 * The adaptive (visitor) schema of a site: read by those who see the site, replaced by its admins
 * (the Site's `permissions.editAdaptiveSchema`), in one transaction that records
 * `site.adaptive_schema.updated` with the schema as the API presents it.
 */
import { inTransaction, type ServiceContext } from '../../../core/service.js';
import type { SiteAdaptiveSchemaRow } from '../../../db/schema.js';
import { recordEvent } from '../../../events/record.js';
import { notFound } from '../../../lib/errors.js';
import { nowIso } from '../../../lib/time.js';
import { type AdaptiveJsonSchema, checkAdaptiveSchema, templateConditions } from '../../../sites/adaptive-schema.js';
import { siteToChange } from '../shared/service.js';
import { findAdaptiveSchema, putAdaptiveSchema } from './repo.js';

export function presentAdaptiveSchema(row: SiteAdaptiveSchemaRow) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: JSON.parse(row.json_schema) as AdaptiveJsonSchema,
    updatedAt: row.updated_at,
  };
}

async function storedSchema(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'read', 'read it');
  const row = await findAdaptiveSchema(ctx.db, site.id);
  if (!row) throw notFound(`site ${site.id} has no adaptive schema`);
  return row;
}

export async function getSiteAdaptiveSchema(ctx: ServiceContext, organizationId: string, siteId: string) {
  return presentAdaptiveSchema(await storedSchema(ctx, organizationId, siteId));
}

/** Template conditions derived from the stored schema; none for a site without one. */
export async function listSiteTemplateConditions(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'read', 'read it');
  const row = await findAdaptiveSchema(ctx.db, site.id);
  return row ? templateConditions(JSON.parse(row.json_schema) as AdaptiveJsonSchema) : [];
}

export async function updateSiteAdaptiveSchema(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  jsonSchema: unknown,
) {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', 'change its adaptive schema');
  const schema = checkAdaptiveSchema(jsonSchema);
  return inTransaction(ctx.db, async (trx) => {
    const before = await findAdaptiveSchema(trx, site.id);
    const row: SiteAdaptiveSchemaRow = { site_id: site.id, json_schema: JSON.stringify(schema), updated_at: nowIso() };
    await putAdaptiveSchema(trx, row);
    const object = presentAdaptiveSchema(row);
    await recordEvent(trx, ctx, {
      type: 'site.adaptive_schema.updated',
      organizationId: site.organization_id,
      target: { object: 'site', id: site.id, label: site.title },
      data: { object, ...(before ? { previous: { jsonSchema: JSON.parse(before.json_schema) } } : {}) },
    });
    return object;
  });
}
