/** Response shaping of integrations and installations. Secrets and the script never appear here. */
import type { Static } from 'typebox';
import type { IntegrationInstallationRow, IntegrationRow, OrganizationRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import type { IntegrationViewer } from '../../permissions/integrations.js';
import { presentOrganization } from '../organizations/present.js';
import type { SpaceObject } from '../spaces/present.js';
import type { Installation, Integration, SpaceInstallation } from './schemas.js';

type IntegrationObject = Static<typeof Integration>;

export function integrationPath(name: string): string {
  return `/integrations/${encodeURIComponent(name)}`;
}

export function presentIntegration(
  row: IntegrationRow,
  owner: OrganizationRow,
  viewer: IntegrationViewer,
  urls: Urls,
): IntegrationObject {
  const path = integrationPath(row.name);
  const v = `?v=${row.version}`;
  const ownerRole = (viewer.roles.get(row.organization_id) ?? null) as Role | null;
  const csp = row.content_security_policy === null ? undefined : JSON.parse(row.content_security_policy);
  return {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== null ? { summary: row.summary } : {}),
    previewImages: Array.from({ length: row.preview_count }, (_, i) => urls.api(`${path}/previews/${i}${v}`)),
    target: row.target as IntegrationObject['target'],
    verified: row.verified === 1,
    visibility: row.visibility as IntegrationObject['visibility'],
    scopes: JSON.parse(row.scopes),
    categories: JSON.parse(row.categories),
    blocks: JSON.parse(row.blocks),
    contentSources: JSON.parse(row.content_sources),
    configurations: JSON.parse(row.configurations),
    externalLinks: JSON.parse(row.external_links),
    owner: presentOrganization(owner, { role: ownerRole, ownsTeam: false }, urls),
    urls: {
      location: urls.api(path),
      ...(row.has_icon === 1 ? { icon: urls.api(`${path}/icon${v}`) } : {}),
      app: urls.app(path),
      assets: urls.app(`${path}/assets`),
      publicEndpoint: urls.app(`${path}/endpoint`),
      publicContentEndpoint: urls.app(`${path}/endpoint`),
    },
    permissions: {
      admin: ownerRole === 'admin',
      install: [...viewer.roles.values()].includes('admin'),
    },
    ...(csp !== undefined ? { contentSecurityPolicy: csp } : {}),
  };
}

/** Presents a batch; `owners` holds their organizations by id (`integrationOwners`). */
export function presentIntegrations(
  rows: IntegrationRow[],
  owners: Map<string, OrganizationRow>,
  viewer: IntegrationViewer,
  urls: Urls,
): IntegrationObject[] {
  return rows.flatMap((row) => {
    const owner = owners.get(row.organization_id);
    return owner ? [presentIntegration(row, owner, viewer, urls)] : [];
  });
}

export function presentInstallation(
  row: IntegrationInstallationRow,
  spaces: number,
  urls: Urls,
): Static<typeof Installation> {
  const path = `${integrationPath(row.integration_name)}/installations/${row.id}`;
  return {
    object: 'integration-installation',
    id: row.id,
    integration: row.integration_name,
    status: row.status as Static<typeof Installation>['status'],
    space_selection: 'selected',
    site_selection: 'selected',
    spaces,
    configuration: JSON.parse(row.configuration),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: urls.api(path),
      app: urls.app(`/o/${row.organization_id}${integrationPath(row.integration_name)}`),
      publicEndpoint: urls.app(`${path}/endpoint`),
      publicContentEndpoint: urls.app(`${path}/endpoint`),
    },
    externalIds: [],
    target: { organization: row.organization_id },
  };
}

export function presentSpaceInstallation(
  installation: IntegrationInstallationRow,
  configuration: string,
  space: string | SpaceObject,
  urls: Urls,
): Static<typeof SpaceInstallation> {
  const spaceId = typeof space === 'string' ? space : space.id;
  const path = `${integrationPath(installation.integration_name)}/installations/${installation.id}/spaces/${spaceId}`;
  return {
    object: 'integration-space-installation',
    integration: installation.integration_name,
    installation: installation.id,
    status: installation.status as Static<typeof SpaceInstallation>['status'],
    configuration: JSON.parse(configuration),
    externalIds: [],
    urls: {
      location: urls.api(path),
      publicEndpoint: urls.app(`${path}/endpoint`),
      publicContentEndpoint: urls.app(`${path}/endpoint`),
    },
    space,
  };
}
