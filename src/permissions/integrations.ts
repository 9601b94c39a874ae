/**
 * Who may do what with integrations: the caller's role in each organization they see decides.
 * Private integrations exist only for members of their organization; admins of the owning
 * organization publish new versions; admins of an organization install integrations on it.
 */
import type { DbOrTrx } from '../core/service.js';
import type { IntegrationRow } from '../db/schema.js';
import { notFound } from '../lib/errors.js';

/** What presenting needs to know of the caller: their role in each organization they see. */
export interface IntegrationViewer {
  roles: Map<string, string>;
}

/** The caller's role in each organization where they are an enabled member (guests excluded). */
export async function loadIntegrationViewer(db: DbOrTrx, userId: string): Promise<IntegrationViewer> {
  const rows = await db
    .selectFrom('members')
    .select(['organization_id', 'role'])
    .where('user_id', '=', userId)
    .where('disabled', '=', 0)
    .where('role', 'is not', null)
    .execute();
  return { roles: new Map(rows.map((r) => [r.organization_id, r.role as string])) };
}

/** Admins of the owning organization administrate the integration. */
export function isIntegrationAdmin(viewer: IntegrationViewer, integration: IntegrationRow): boolean {
  return viewer.roles.get(integration.organization_id) === 'admin';
}

/** Private integrations exist only for members of their organization; the others for everyone. */
export function canSeeIntegration(viewer: IntegrationViewer, integration: IntegrationRow): boolean {
  return integration.visibility !== 'private' || viewer.roles.has(integration.organization_id);
}

/** `row` (the integration `name`, as found) if the viewer may see it, else 404. */
export function requireVisibleIntegration(
  row: IntegrationRow | undefined,
  name: string,
  viewer: IntegrationViewer,
): IntegrationRow {
  if (!row || !canSeeIntegration(viewer, row)) throw notFound(`integration ${name} not found`);
  return row;
}
