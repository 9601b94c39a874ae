/**
 * The changes of a site's ads: a site admin submits a published public site for review (or
 * disables ads); the ad partner records its decision on a submitted site.
 */
import type { Static } from 'typebox';
import { actingUser, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { Db } from '../../../db/database.js';
import type { SiteRow } from '../../../db/schema.js';
import { previousValues } from '../../../events/changes.js';
import { recordEvent } from '../../../events/record.js';
import { badRequest, conflict, notFound } from '../../../lib/errors.js';
import { authorizeSite } from '../../../permissions/sites.js';
import { findSite } from '../../../sites/repo.js';
import { presentAds } from '../shared/present.js';
import { findAdsState, setAds } from './repo.js';
import type { PartnerUpdateBody, SubmitAdsBody } from './schemas.js';

/**
 * Sets the ads fields of the site and records `site.ads.updated` with its `ads` as the Site object
 * shows them (a site admin's submission and the partner's decision alike).
 */
function changeAds(ctx: ServiceContext, siteId: string, fields: Parameters<typeof setAds>[2]): Promise<void> {
  return inTransaction(ctx.db, async (trx) => {
    const before = (await findSite(trx as Db, siteId)) as SiteRow;
    await setAds(trx, siteId, fields);
    const after = (await findSite(trx as Db, siteId)) as SiteRow;
    const object = { object: 'site-ads', ...presentAds(after) };
    await recordEvent(trx, ctx, {
      type: 'site.ads.updated',
      organizationId: after.organization_id,
      target: { object: 'site', id: after.id, label: after.title },
      data: { object, previous: previousValues({ object: 'site-ads', ...presentAds(before) }, object) },
    });
  });
}

/** Submits the site for ads review on `topic`, or disables its ads (`status: disabled`). */
export async function updateSiteAds(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: Static<typeof SubmitAdsBody>,
): Promise<void> {
  const user = actingUser(ctx);
  const { site } = await authorizeSite(ctx.db, user.id, organizationId, siteId, 'admin', 'manage its ads');
  if ((input.status ?? 'in-review') === 'disabled') {
    await changeAds(ctx, site.id, { ads_status: 'disabled' });
    return;
  }
  if (!input.topic) throw badRequest('body/topic is required to submit a site for ads review');
  if (site.published !== 1 || site.visibility !== 'public') {
    throw badRequest('only a published public site can be submitted for ads review');
  }
  const topic = input.topic;
  await changeAds(ctx, site.id, { ads_status: 'in-review', ads_topic: topic, ads_email: user.email, ads_reason: null });
}

/**
 * The partner's decision on a site submitted for review (the route checked the partner key): live
 * with its zone and reporting ids, rejected with a reason, or pending.
 */
export async function recordAdsDecision(
  ctx: ServiceContext,
  siteId: string,
  decision: Static<typeof PartnerUpdateBody>,
): Promise<void> {
  const site = await findAdsState(ctx.db, siteId);
  if (!site) throw notFound(`site ${siteId} not found`);
  // A partner decides on sites submitted for review, never on one that did not ask for ads.
  if (!site.ads_topic) throw conflict(`site ${site.id} was not submitted for ads review`);
  await changeAds(ctx, site.id, {
    ads_status: decision.status,
    ads_zone_id: decision.status === 'live' ? decision.zoneId : null,
    ads_reporting_id: decision.status === 'live' ? decision.reportingId : null,
    ads_reason: decision.status === 'rejected' ? (decision.reason ?? null) : null,
  });
}
