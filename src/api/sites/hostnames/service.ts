/**
 * Custom hostnames of sites. A site admin claims a hostname for the site (`PUT`); the claim is
 * pending, and nothing is served on it, until `dnsRevalidateCustomHostname` finds the claim's TXT
 * record (src/lib/dns.ts); the hostname is then the site's (`sites.hostname`), which the published
 * sites answer on. Tenancy: a hostname another organization owns (verified, or its operator-set
 * custom hostname) cannot be claimed or verified (409); pending claims block nobody, since only the
 * zone's owner can publish the record of theirs; removal stops the serving at once.
 */
import { randomBytes } from 'node:crypto';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { CustomHostnameRow } from '../../../db/schema.js';
import { recordEvent } from '../../../events/record.js';
import { HOSTNAME_PATTERN, holdsRecord, type ResolveTxt, verificationRecord } from '../../../lib/dns.js';
import { ApiError, badRequest, conflict, notFound } from '../../../lib/errors.js';
import { authorizeSite, type SiteAction } from '../../../permissions/sites.js';
import { hostOwners } from '../../../sites/hosts.js';
import { findSite } from '../../../sites/repo.js';
import { presentClaim } from './present.js';
import { claimOfSite, claimsOf, dropClaim, insertClaim, servedByAnotherSite, verifyClaim } from './repo.js';

/** `raw` lower-cased if it is a hostname a site may claim (400 otherwise). */
export function claimableHostname(raw: string, publicHost: string): string {
  const hostname = raw.toLowerCase();
  if (hostname.length > 253 || !HOSTNAME_PATTERN.test(hostname)) {
    throw badRequest(`hostname: "${raw}" is not a hostname of at least three labels (e.g. docs.example.com)`);
  }
  if (hostname === publicHost.toLowerCase().replace(/:\d+$/, '')) {
    throw badRequest(`hostname: "${raw}" is this server's own address`);
  }
  return hostname;
}

/** The claims of `hostname` the acting user may do `action` on (those of sites they cannot see are skipped). */
export async function claimsFor(
  ctx: ServiceContext,
  hostname: string,
  action: SiteAction,
  what: string,
): Promise<CustomHostnameRow[]> {
  const mine: CustomHostnameRow[] = [];
  for (const claim of await claimsOf(ctx.db, hostname)) {
    try {
      await authorizeSite(ctx.db, actingUser(ctx).id, claim.organization_id, claim.site_id, action, what);
      mine.push(claim);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
    }
  }
  return mine;
}

/** 409 unless `hostname` is free for `claim`'s site: owned by no other organization, served by no other site. */
async function requireFree(db: DbOrTrx, hostname: string, organizationId: string, siteId: string) {
  const owners = await hostOwners(db, hostname);
  if (owners.some((owner) => owner !== organizationId)) {
    throw conflict(`hostname ${hostname} belongs to another organization`);
  }
  if (await servedByAnotherSite(db, hostname, siteId)) throw conflict(`hostname ${hostname} is in use by another site`);
}

async function recordHostnameEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'site.custom_hostname.updated' | 'site.custom_hostname.removed',
  claim: CustomHostnameRow,
) {
  await recordEvent(trx, ctx, {
    type,
    organizationId: claim.organization_id,
    target: { object: 'site', id: claim.site_id },
    data: { object: presentClaim(claim, ctx.urls) },
  });
}

/**
 * Claims `hostname` for the site (site admins): a new pending claim with its own token, replacing
 * the site's previous one (whose hostname, if verified, stops serving the site). Claiming the site's
 * current hostname again changes nothing. `created` tells which.
 */
export async function setCustomHostname(
  ctx: ServiceContext,
  rawHostname: string,
  siteId: string,
  publicHost: string,
): Promise<{ claim: CustomHostnameRow; created: boolean }> {
  const hostname = claimableHostname(rawHostname, publicHost);
  const site = await findSite(ctx.db, siteId);
  if (!site) throw notFound(`site ${siteId} not found`);
  await authorizeSite(ctx.db, actingUser(ctx).id, site.organization_id, site.id, 'publish', 'set its custom hostname');
  return inTransaction(ctx.db, async (trx) => {
    await requireFree(trx, hostname, site.organization_id, site.id);
    const current = await claimOfSite(trx, site.id);
    if (current?.hostname === hostname) return { claim: current, created: false };
    if (current) await dropClaim(trx, current);
    const claim = await insertClaim(trx, {
      site_id: site.id,
      organization_id: site.organization_id,
      hostname,
      token: randomBytes(18).toString('base64url'),
    });
    await recordHostnameEvent(trx, ctx, 'site.custom_hostname.updated', claim);
    return { claim, created: true };
  });
}

/**
 * `dnsRevalidateCustomHostname`: looks up the TXT record of the caller's claim of `hostname`; when it
 * holds the claim's value, the claim is verified and the site served there (409 when another
 * organization or site has the hostname meanwhile). Without the record nothing changes: the claim
 * stays pending. 404 when the caller has no claim of it.
 */
export async function revalidateCustomHostname(
  ctx: ServiceContext,
  rawHostname: string,
  resolveTxt: ResolveTxt,
): Promise<void> {
  const hostname = rawHostname.toLowerCase();
  const [claim] = await claimsFor(ctx, hostname, 'publish', 'verify its custom hostname');
  if (!claim) throw notFound(`custom hostname ${hostname} not found`);
  if (claim.verified_at) return;
  const record = verificationRecord(claim.hostname, claim.token);
  let records: string[][] = [];
  try {
    records = await resolveTxt(record.name);
  } catch {
    // No such name, no TXT record, or no answer: not verified (yet).
  }
  if (!holdsRecord(records, record.value)) return;
  await inTransaction(ctx.db, async (trx) => {
    const current = await claimOfSite(trx, claim.site_id);
    if (current?.hostname !== claim.hostname || current.verified_at) return;
    await requireFree(trx, hostname, claim.organization_id, claim.site_id);
    await recordHostnameEvent(trx, ctx, 'site.custom_hostname.updated', await verifyClaim(trx, current));
  });
}

/**
 * `removeCustomHostname`: drops the caller's claim of `hostname` (the site stops answering there at
 * once). False when they have none (an unknown hostname, or another organization's, alike).
 */
export async function removeCustomHostname(ctx: ServiceContext, rawHostname: string): Promise<boolean> {
  const claims = await claimsFor(ctx, rawHostname.toLowerCase(), 'publish', 'remove its custom hostname');
  if (claims.length === 0) return false;
  await inTransaction(ctx.db, async (trx) => {
    for (const claim of claims) {
      await dropClaim(trx, claim);
      await recordHostnameEvent(trx, ctx, 'site.custom_hostname.removed', claim);
    }
  });
  return true;
}
