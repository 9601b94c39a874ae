/**
 * Hosts and hostnames name one organization each (src/sites/hosts.ts, src/published/model.ts):
 *
 * - `organizations.hostname` is stored lower-case and never has an id's shape (20 letters and
 *   digits): addresses resolve an id-shaped segment by id only, so such a hostname was either a
 *   takeover of another organization's address or unreachable. It is cleared (the organization's
 *   sites are then addressed by its id, as they are without a hostname). Of hostnames equal but for
 *   their case, the oldest organization keeps it and the others lose it.
 * - `organizations.custom_hostname` is lower-cased and made unique (the oldest keeps a duplicate);
 *   `sites.hostname` is lower-cased and indexed (hosts are looked up by it).
 * - `sites.proxy` has its host lower-cased and is made unique. A proxy is kept only when its host is
 *   owned by the site's own organization alone (its custom hostname or one of its sites'), as the API
 *   now requires: any other proxy could shadow another organization's site and is no longer served,
 *   so it is cleared (set it again once the host is the organization's). Of equal proxies, the
 *   oldest site keeps it.
 *
 * The rules are copied here (not imported) so that this migration keeps doing what it did.
 */
import type { Kysely } from 'kysely';

interface Tables {
  organizations: { id: string; hostname: string | null; custom_hostname: string | null; created_at: string };
  sites: { id: string; organization_id: string; hostname: string | null; proxy: string | null; created_at: string };
}

const ID_SHAPE = /^[A-Za-z0-9]{20}$/;

interface Row {
  id: string;
  value: string;
}

/**
 * What each row's value becomes (rows oldest first): `normal(value)`, or null when `refused` says so
 * or an older row already has it. Only the rows whose value changes are in the answer.
 */
function settle(rows: Row[], normal: (value: string) => string, refused: (value: string, id: string) => boolean) {
  const seen = new Set<string>();
  const changes = new Map<string, string | null>();
  for (const row of rows) {
    const value = normal(row.value);
    const next = refused(value, row.id) || seen.has(value) ? null : value;
    if (next !== null) seen.add(next);
    if (next !== row.value) changes.set(row.id, next);
  }
  return changes;
}

/**
 * Writes `changes` to `column`: every changing row is cleared first, then given its new value, so that
 * a value moving between rows (`Acme` → `acme` while another row loses `acme`) never meets a unique
 * index twice.
 */
async function apply(
  db: Kysely<Tables>,
  table: 'organizations' | 'sites',
  column: 'hostname' | 'custom_hostname' | 'proxy',
  changes: Map<string, string | null>,
) {
  const ids = [...changes.keys()];
  for (let at = 0; at < ids.length; at += 500) {
    await db
      .updateTable(table)
      .set({ [column]: null })
      .where('id', 'in', ids.slice(at, at + 500))
      .execute();
  }
  for (const [id, value] of changes) {
    if (value !== null)
      await db
        .updateTable(table)
        .set({ [column]: value })
        .where('id', '=', id)
        .execute();
  }
}

const lower = (value: string) => value.toLowerCase();

export async function up(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<Tables>;
  const organizations = await db
    .selectFrom('organizations')
    .select(['id', 'hostname', 'custom_hostname'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const sites = await db
    .selectFrom('sites')
    .select(['id', 'organization_id', 'hostname', 'proxy'])
    .where((eb) => eb.or([eb('hostname', 'is not', null), eb('proxy', 'is not', null)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const rows = <T extends { id: string }>(list: T[], value: (row: T) => string | null): Row[] =>
    list.flatMap((row) => {
      const v = value(row);
      return v === null ? [] : [{ id: row.id, value: v }];
    });

  const hostnames = settle(
    rows(organizations, (o) => o.hostname),
    lower,
    (value) => ID_SHAPE.test(value),
  );
  const customHostnames = settle(
    rows(organizations, (o) => o.custom_hostname),
    lower,
    () => false,
  );
  const siteHostnames = new Map<string, string | null>();
  for (const site of sites) {
    if (site.hostname !== null && site.hostname !== lower(site.hostname))
      siteHostnames.set(site.id, lower(site.hostname));
  }

  // Who owns each host once the above is applied.
  const owners = new Map<string, Set<string>>();
  const claim = (host: string | null | undefined, organizationId: string) => {
    if (!host) return;
    const set = owners.get(host) ?? new Set<string>();
    set.add(organizationId);
    owners.set(host, set);
  };
  for (const o of organizations) {
    claim(customHostnames.has(o.id) ? customHostnames.get(o.id) : o.custom_hostname, o.id);
  }
  for (const s of sites) claim(s.hostname === null ? null : lower(s.hostname), s.organization_id);
  const organizationOf = new Map(sites.map((s) => [s.id, s.organization_id]));
  const proxies = settle(
    rows(sites, (s) => s.proxy),
    (proxy) => {
      const slash = proxy.indexOf('/');
      return slash < 0 ? lower(proxy) : `${lower(proxy.slice(0, slash))}${proxy.slice(slash)}`;
    },
    (proxy, siteId) => {
      const slash = proxy.indexOf('/');
      const claimants = owners.get(slash < 0 ? proxy : proxy.slice(0, slash));
      return claimants?.size !== 1 || !claimants.has(organizationOf.get(siteId) as string);
    },
  );

  await apply(db, 'organizations', 'hostname', hostnames);
  await apply(db, 'organizations', 'custom_hostname', customHostnames);
  await apply(db, 'sites', 'hostname', siteHostnames);
  await apply(db, 'sites', 'proxy', proxies);

  await raw.schema
    .createIndex('organizations_custom_hostname')
    .unique()
    .on('organizations')
    .column('custom_hostname')
    .execute();
  await raw.schema.createIndex('sites_proxy').unique().on('sites').column('proxy').execute();
  await raw.schema.createIndex('sites_hostname').on('sites').column('hostname').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sites_hostname').execute();
  await db.schema.dropIndex('sites_proxy').execute();
  await db.schema.dropIndex('organizations_custom_hostname').execute();
}
