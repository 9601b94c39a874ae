/** SAML providers and sign-in choices as the API returns them. Pure. */
import type { Static } from 'typebox';
import type { SamlProviderRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import type { Team } from '../teams/schemas.js';
import type { SamlProvider } from './schemas.js';

/** Where Bindery serves a provider's sign-in: its start, its assertion consumer and its metadata (entity id). */
export function samlServiceUrls(urls: Urls, providerId: string) {
  const base = `/auth/saml/${encodeURIComponent(providerId)}`;
  return {
    acsURL: urls.app(`${base}/acs`),
    startURL: urls.app(`${base}/login`),
    entityID: urls.app(`${base}/metadata`),
  };
}

export function isActive(row: SamlProviderRow): boolean {
  return row.entity_id !== null && row.sso_url !== null && row.certificate !== null;
}

export function presentProvider(
  row: SamlProviderRow,
  defaultTeam: Static<typeof Team> | null,
  urls: Urls,
): Static<typeof SamlProvider> {
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url ?? '',
    entityID: row.entity_id ?? '',
    certificate: row.certificate ?? '',
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: row.default_role as Role | null,
    createdAt: row.created_at,
    status: isActive(row) ? 'active' : 'pending',
    service: samlServiceUrls(urls, row.id),
    urls: { location: urls.api(`/orgs/${row.organization_id}/saml/${row.id}`) },
  };
}

export function presentLogin(row: SamlProviderRow, urls: Urls) {
  return { id: row.id, label: row.label, startURL: samlServiceUrls(urls, row.id).startURL };
}
