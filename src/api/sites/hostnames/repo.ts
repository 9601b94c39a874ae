/** Custom hostnames claimed by sites (`custom_hostnames`), and organizations by their address. */
import type { DbOrTrx } from '../../../core/service.js';
import type { CustomHostnameRow } from '../../../db/schema.js';
import { nowIso } from '../../../lib/time.js';

/** Every claim of `hostname` (lower-case), the verified one first, then the newest. */
export function claimsOf(db: DbOrTrx, hostname: string): Promise<CustomHostnameRow[]> {
  return db
    .selectFrom('custom_hostnames')
    .selectAll()
    .where('hostname', '=', hostname)
    .orderBy('verified_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

export function claimOfSite(db: DbOrTrx, siteId: string): Promise<CustomHostnameRow | undefined> {
  return db.selectFrom('custom_hostnames').selectAll().where('site_id', '=', siteId).executeTakeFirst();
}

/** Drops the site's claim; a verified one was the site's hostname, which goes with it. */
export async function dropClaim(db: DbOrTrx, claim: CustomHostnameRow): Promise<void> {
  await db.deleteFrom('custom_hostnames').where('site_id', '=', claim.site_id).execute();
  if (claim.verified_at) {
    await db
      .updateTable('sites')
      .set({ hostname: null, updated_at: nowIso() })
      .where('id', '=', claim.site_id)
      .where('hostname', '=', claim.hostname)
      .execute();
  }
}

export async function insertClaim(
  db: DbOrTrx,
  claim: Pick<CustomHostnameRow, 'site_id' | 'organization_id' | 'hostname' | 'token'>,
): Promise<CustomHostnameRow> {
  const row = { ...claim, verified_at: null, created_at: nowIso() };
  await db.insertInto('custom_hostnames').values(row).execute();
  return row;
}

/** Marks the claim verified and makes its hostname the site's (the unique index refuses a second). */
export async function verifyClaim(db: DbOrTrx, claim: CustomHostnameRow): Promise<CustomHostnameRow> {
  const now = nowIso();
  await db.updateTable('custom_hostnames').set({ verified_at: now }).where('site_id', '=', claim.site_id).execute();
  await db
    .updateTable('sites')
    .set({ hostname: claim.hostname, updated_at: now })
    .where('id', '=', claim.site_id)
    .execute();
  return { ...claim, verified_at: now };
}

/** Whether a site other than `siteId` is served on `hostname` (a verified claim, or set by an operator). */
export async function servedByAnotherSite(db: DbOrTrx, hostname: string, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select('id')
    .where('hostname', '=', hostname)
    .where('id', '!=', siteId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The organization whose address (`organizations.hostname`) is `subdomain`. */
export function organizationBySubdomain(db: DbOrTrx, subdomain: string) {
  return db.selectFrom('organizations').select(['id', 'hostname']).where('hostname', '=', subdomain).executeTakeFirst();
}

/** The organization whose custom hostname (set by an operator) is `hostname`. */
export function organizationByCustomHostname(db: DbOrTrx, hostname: string) {
  return db.selectFrom('organizations').select(['id']).where('custom_hostname', '=', hostname).executeTakeFirst();
}
