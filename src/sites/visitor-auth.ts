/**
 * A site's visitor-authentication settings (`publishing-auth`): the key visitors' JWTs are signed
 * with (HS256) and where a visitor without a valid token is sent. Every site has them from its
 * creation (a new random key), so a site switched to `visitor-auth` always has a key; sites made
 * before that get theirs when a server starts ({@link backfillVisitorAuth}), never on a read. The key is
 * sealed at rest with the secrets key (its additional data is the site id), and returned in clear
 * to site admins only, who hand it to their login backend.
 */

import { decryptSecret, encryptSecret } from '../core/secrets.js';
import type { Db } from '../db/database.js';
import type { SitePublishingAuthRow } from '../db/schema.js';
import { newSecret } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';

export interface VisitorAuthSettings {
  backend: 'custom' | 'integration';
  privateKey: string;
  fallbackUrl: string | null;
  logoutUrl: string | null;
}

function read(row: SitePublishingAuthRow, key: Buffer): VisitorAuthSettings {
  return {
    backend: row.backend === 'integration' ? 'integration' : 'custom',
    privateKey: decryptSecret(key, row.private_key, row.site_id),
    fallbackUrl: row.fallback_url,
    logoutUrl: row.logout_url,
  };
}

/** Makes a new site's settings: backend `custom`, a new key. Called in the site's creation. */
export async function createVisitorAuth(db: Db, siteId: string, key: Buffer): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('site_publishing_auth')
    .values({
      site_id: siteId,
      backend: 'custom',
      private_key: encryptSecret(key, newSecret(32), siteId),
      fallback_url: null,
      logout_url: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('site_id').doNothing()) // another starting process made them
    .execute();
}

/**
 * Makes the settings of every site that has none (sites created before settings came with the
 * site), at start. Selects first: an INSERT that does nothing still fires PostgreSQL's statement
 * trigger, which tells every other process that data changed (src/db/change-triggers.ts).
 */
export async function backfillVisitorAuth(db: Db, key: Buffer): Promise<number> {
  const missing = await db
    .selectFrom('sites')
    .select('id')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('site_publishing_auth').select('site_id').whereRef('site_id', '=', 'sites.id'))),
    )
    .execute();
  for (const { id } of missing) await createVisitorAuth(db, id, key);
  return missing.length;
}

/** The site's settings (every site has them: see above). */
export async function visitorAuthOf(db: Db, siteId: string, key: Buffer): Promise<VisitorAuthSettings> {
  const row = await settingsRow(db, siteId);
  if (!row) throw new Error(`site ${siteId} has no visitor-auth settings`);
  return read(row, key);
}

function settingsRow(db: Db, siteId: string): Promise<SitePublishingAuthRow | undefined> {
  return db.selectFrom('site_publishing_auth').selectAll().where('site_id', '=', siteId).executeTakeFirst();
}

/** Changes the backend and URLs (undefined: unchanged, null: unset). */
export async function updateVisitorAuth(
  db: Db,
  siteId: string,
  key: Buffer,
  patch: { backend: 'custom' | 'integration'; fallbackUrl?: string | null; logoutUrl?: string | null },
): Promise<VisitorAuthSettings> {
  await db
    .updateTable('site_publishing_auth')
    .set({
      backend: patch.backend,
      ...(patch.fallbackUrl !== undefined ? { fallback_url: patch.fallbackUrl } : {}),
      ...(patch.logoutUrl !== undefined ? { logout_url: patch.logoutUrl } : {}),
      updated_at: nowIso(),
    })
    .where('site_id', '=', siteId)
    .execute();
  return visitorAuthOf(db, siteId, key);
}

/** A new key: tokens signed with the old one stop opening the site at once. */
export async function regenerateVisitorKey(db: Db, siteId: string, key: Buffer): Promise<VisitorAuthSettings> {
  await db
    .updateTable('site_publishing_auth')
    .set({ private_key: encryptSecret(key, newSecret(32), siteId), updated_at: nowIso() })
    .where('site_id', '=', siteId)
    .execute();
  return visitorAuthOf(db, siteId, key);
}
