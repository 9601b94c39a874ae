/**
 * Migration 0021 on data an older server let in: hostnames of any case or of an id's shape,
 * duplicate custom hostnames, and proxies on hosts that are not their site's organization's. What
 * it keeps serves as before; what it clears could have shadowed another organization.
 */
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { insertSite } from '../../src/api/sites/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

let database: FreshDatabase;
let db: Db;
beforeAll(async () => {
  database = await freshDatabase('tenancy-migration');
  db = createDb(database.url, { poolSize: 2 });
  // The schema as it was before 0021.
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0021'));
  const result = await new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => before },
  }).migrateToLatest();
  expect(result.error).toBeUndefined();
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** An organization created at `createdAt` (the migration keeps a duplicate for the oldest). */
async function org(createdAt: string, fields: { hostname?: string; custom_hostname?: string } = {}) {
  const user = await findOrCreateUser(db, `owner-${createdAt}@example.test`, 'Owner');
  const row = await createOrganization(db, { title: `Org ${createdAt}` }, user.id);
  await db
    .updateTable('organizations')
    .set({ created_at: createdAt, ...fields })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

async function site(organizationId: string, createdAt: string, fields: { hostname?: string; proxy?: string }) {
  const row = await insertSite(db, organizationId, { title: `Site ${createdAt}` }, []);
  await db
    .updateTable('sites')
    .set({ created_at: createdAt, ...fields })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

const organization = (id: string) =>
  db.selectFrom('organizations').select(['hostname', 'custom_hostname']).where('id', '=', id).executeTakeFirstOrThrow();
const siteRow = (id: string) =>
  db.selectFrom('sites').select(['hostname', 'proxy']).where('id', '=', id).executeTakeFirstOrThrow();

describe('migration 0021 (tenancy of hostnames)', () => {
  it('normalizes hosts and clears what could shadow another organization', async () => {
    const victim = await org('2024-01-01T00:00:00.000Z', { hostname: 'Victim', custom_hostname: 'Docs.Victim.test' });
    // A hostname that is the victim's id; one equal to the victim's but for its case; an older duplicate custom hostname.
    const squatter = await org('2024-01-02T00:00:00.000Z', { hostname: victim, custom_hostname: 'docs.victim.test' });
    const copycat = await org('2024-01-03T00:00:00.000Z', { hostname: 'victim' });
    const own = await org('2024-01-04T00:00:00.000Z', { hostname: 'own-org' });

    const victimSite = await site(victim, '2024-02-01T00:00:00.000Z', { proxy: 'DOCS.victim.test/Help' });
    // Proxies on the victim's host, of another organization's site.
    const shadow = await site(squatter, '2024-02-02T00:00:00.000Z', { proxy: 'docs.victim.test/api' });
    // A site's own custom hostname is its organization's host: a proxy there is kept, a duplicate is not.
    const ownSite = await site(own, '2024-02-03T00:00:00.000Z', { hostname: 'Own.test', proxy: 'own.test/a' });
    const ownDuplicate = await site(own, '2024-02-04T00:00:00.000Z', { proxy: 'OWN.test/a' });
    // A proxy on a host nobody owns.
    const unowned = await site(own, '2024-02-05T00:00:00.000Z', { proxy: 'nobody.test/docs' });

    await migrateToLatest(db);

    expect(await organization(victim)).toEqual({ hostname: 'victim', custom_hostname: 'docs.victim.test' });
    expect(await organization(squatter)).toEqual({ hostname: null, custom_hostname: null });
    expect(await organization(copycat)).toEqual({ hostname: null, custom_hostname: null });
    expect(await organization(own)).toEqual({ hostname: 'own-org', custom_hostname: null });
    expect(await siteRow(victimSite)).toEqual({ hostname: null, proxy: 'docs.victim.test/Help' });
    expect(await siteRow(shadow)).toEqual({ hostname: null, proxy: null });
    expect(await siteRow(ownSite)).toEqual({ hostname: 'own.test', proxy: 'own.test/a' });
    expect(await siteRow(ownDuplicate)).toEqual({ hostname: null, proxy: null });
    expect(await siteRow(unowned)).toEqual({ hostname: null, proxy: null });

    // From now on the database refuses duplicates itself.
    await expect(
      db.updateTable('organizations').set({ custom_hostname: 'docs.victim.test' }).where('id', '=', own).execute(),
    ).rejects.toThrow();
    await expect(
      db.updateTable('sites').set({ proxy: 'own.test/a' }).where('id', '=', ownDuplicate).execute(),
    ).rejects.toThrow();
  });
});
