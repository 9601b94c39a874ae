/**
 * Who may do what with integrations: the caller's role in each organization they see decides.
 * Private integrations exist only for members of their organization; admins of the owning
 * organization publish new versions; admins of an organization install integrations on it.
 */

import type { DbOrTrx } from '../../core/service.js';
import type { IntegrationRow } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { findIntegration, membershipsOf } from './repo.js';

/** What presenting needs to know of the caller: their role in each organization they see. */
export interface IntegrationViewer {
  roles: Map<string, string>;
}

export async function loadIntegrationViewer(db: DbOrTrx, userId: string): Promise<IntegrationViewer> {
  return { roles: await membershipsOf(db, userId) };
}

/** Admins of the owning organization administrate the integration. */
export function isIntegrationAdmin(viewer: IntegrationViewer, integration: IntegrationRow): boolean {
  return viewer.roles.get(integration.organization_id) === 'admin';
}

/** Private integrations exist only for members of their organization; the others for everyone. */
export function canSeeIntegration(viewer: IntegrationViewer, integration: IntegrationRow): boolean {
  return integration.visibility !== 'private' || viewer.roles.has(integration.organization_id);
}

/** The integration `name` if the viewer may see it, else 404. */
export async function findVisibleIntegration(
  db: DbOrTrx,
  name: string,
  viewer: IntegrationViewer,
): Promise<IntegrationRow> {
  const row = await findIntegration(db, name);
  if (!row || !canSeeIntegration(viewer, row)) throw notFound(`integration ${name} not found`);
  return row;
}
