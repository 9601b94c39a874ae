/**
 * Which organization a host belongs to. Bindery does not check DNS: the hosts an organization owns
 * are those its operator gave it, its custom hostname (`organizations.custom_hostname`) and its
 * sites' custom hostnames (`sites.hostname`), neither of which the API sets. A site's proxy origin
 * must be on a host its own organization owns (src/api/sites/repo.ts), and a host serves only the
 * sites of its one owner (src/published/model.ts): a host two organizations claim (conflicting
 * data) serves nothing, so that neither can shadow the other.
 *
 * Hosts are compared lower-case: requests' hosts are lower-cased, and every host is stored so.
 */
import type { Db } from '../db/database.js';

/** A proxy origin (`Example.com/Docs`) as stored: its host lower-cased, its path as given (`example.com/Docs`). */
export function normalizeProxy(origin: string): string {
  const slash = origin.indexOf('/');
  return slash < 0 ? origin.toLowerCase() : `${origin.slice(0, slash).toLowerCase()}${origin.slice(slash)}`;
}

/** The host of a proxy origin. */
export function proxyHost(origin: string): string {
  const slash = origin.indexOf('/');
  return slash < 0 ? origin : origin.slice(0, slash);
}

/** The organizations that claim `host` (lower-case): by their custom hostname or a site's. */
export async function hostOwners(db: Db, host: string): Promise<string[]> {
  const [organizations, sites] = await Promise.all([
    db.selectFrom('organizations').select('id').where('custom_hostname', '=', host).execute(),
    db.selectFrom('sites').select('organization_id').distinct().where('hostname', '=', host).execute(),
  ]);
  return [...new Set([...organizations.map((r) => r.id), ...sites.map((r) => r.organization_id)])];
}
