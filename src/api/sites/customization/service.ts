/**
 * The changes of a site's customization: its settings, and the overrides of one site space (set
 * or removed). Members who change the site (`write`) make them.
 */

import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { SiteRow, SiteSpaceRow } from '../../../db/schema.js';
import { previousValues } from '../../../events/changes.js';
import { recordEvent } from '../../../events/record.js';
import { notFound } from '../../../lib/errors.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { assertExpression } from '../../../sites/condition.js';
import {
  siteCustomization,
  siteSpaceCustomization,
  storedOverride,
  storedSiteCustomization,
} from '../../../sites/customization.js';
import type { CustomizationOverridePatch, CustomizationPatch } from '../../../sites/customization-schema.js';
import { findSite } from '../../../sites/repo.js';
import { findSiteSpaceOf, setSiteCustomization, setSiteSpaceCustomization } from './repo.js';

async function siteToChange(ctx: ServiceContext, organizationId: string, siteId: string): Promise<SiteRow> {
  return (await authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, 'write', 'change it')).site;
}

/** 400 unless every header item condition is an expression (an empty one means none), as for sections. */
function checkHeaderConditions(input: CustomizationPatch | CustomizationOverridePatch): void {
  const links = input.header?.links ?? [];
  links.forEach((item, i) => {
    if (item.condition?.trim()) assertExpression(item.condition, `body/header/links/${i}/condition`);
  });
}

async function siteSpaceOf(ctx: ServiceContext, siteId: string, siteSpaceId: string) {
  const row = await findSiteSpaceOf(ctx.db, siteId, siteSpaceId);
  if (!row) throw notFound(`site space ${siteSpaceId} not found`);
  return row;
}

/**
 * Records a change of the site's settings (`site.customization.updated`) or of one site space's
 * (`site.space_customization.updated`, the site space as target), with the settings as the GET
 * presents them after the change and, in `previous`, the top-level settings that changed.
 */
async function recordCustomizationEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  site: SiteRow,
  change: { before: object; after: object; siteSpace?: SiteSpaceRow },
): Promise<void> {
  const { before, after, siteSpace } = change;
  await recordEvent(trx, ctx, {
    type: siteSpace ? 'site.space_customization.updated' : 'site.customization.updated',
    organizationId: site.organization_id,
    target: siteSpace
      ? { object: 'site-space', id: siteSpace.id, label: site.title }
      : { object: 'site', id: site.id, label: site.title },
    data: { object: after, previous: previousValues(before, after, []) },
  });
}

/** Replaces the site's settings; returns what is stored. */
export async function updateSiteCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: CustomizationPatch,
): Promise<{ customization: string }> {
  const site = await siteToChange(ctx, organizationId, siteId);
  checkHeaderConditions(input);
  const customization = storedSiteCustomization(input);
  await inTransaction(ctx.db, async (trx) => {
    await setSiteCustomization(trx, site.id, customization);
    await recordCustomizationEvent(trx, ctx, site, {
      before: siteCustomization(site),
      after: siteCustomization({ customization }),
    });
  });
  return { customization };
}

/** Folds `patch` into the site space's overrides; returns the site (as stored now) and the overrides. */
export async function overrideSiteSpaceCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  patch: CustomizationOverridePatch,
): Promise<{ site: SiteRow; customization: string | null }> {
  const site = await siteToChange(ctx, organizationId, siteId);
  checkHeaderConditions(patch);
  const siteSpace = await siteSpaceOf(ctx, site.id, siteSpaceId);
  const customization = storedOverride(siteSpace.customization, patch);
  await inTransaction(ctx.db, async (trx) => {
    await setSiteSpaceCustomization(trx, siteSpace.id, customization);
    await recordCustomizationEvent(trx, ctx, site, {
      before: siteSpaceCustomization(site, siteSpace),
      after: siteSpaceCustomization(site, { customization }),
      siteSpace,
    });
  });
  return { site: (await findSite(ctx.db, site.id)) ?? site, customization };
}

/** Removes the site space's overrides (it shows the site's settings again). */
export async function deleteSiteSpaceCustomization(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<void> {
  const site = await siteToChange(ctx, organizationId, siteId);
  const siteSpace = await siteSpaceOf(ctx, site.id, siteSpaceId);
  await inTransaction(ctx.db, async (trx) => {
    await setSiteSpaceCustomization(trx, siteSpace.id, null);
    await recordCustomizationEvent(trx, ctx, site, {
      before: siteSpaceCustomization(site, siteSpace),
      after: siteSpaceCustomization(site, { customization: null }),
      siteSpace,
    });
  });
}
