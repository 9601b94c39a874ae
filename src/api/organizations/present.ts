import type { Static } from 'typebox';
import type { OrganizationRow } from '../../db/schema.js';
import type { Role } from '../../lib/schemas.js';
import type { Urls } from '../../lib/urls.js';
import { atLeast } from '../../permissions/roles.js';
import type { Organization } from './schemas.js';

/** The Organization object as `viewerRole` sees it (the permission flags are theirs). */
export function presentOrganization(
  org: OrganizationRow,
  viewer: { role: Role | null; ownsTeam: boolean },
  urls: Urls,
): Static<typeof Organization> {
  const admin = viewer.role === 'admin';
  const create = atLeast(viewer.role, 'create');
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.created_at,
    emailDomains: JSON.parse(org.email_domains) as string[],
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: org.type as Static<typeof Organization>['type'],
    ...(org.use_case ? { useCase: org.use_case as Static<typeof Organization>['useCase'] } : {}),
    ...(org.community_type
      ? { communityType: org.community_type as Static<typeof Organization>['communityType'] }
      : {}),
    defaultRole: org.default_role as Role | null,
    ...(org.default_content_site ? { defaultContent: { type: 'site' as const, site: org.default_content_site } } : {}),
    sso: org.sso === 1,
    ai: org.ai === 1,
    inviteLinks: org.invite_links === 1,
    plan: org.plan,
    mergeRules: org.merge_rules ? JSON.parse(org.merge_rules) : { type: 'none' },
    urls: {
      location: urls.api(`/orgs/${org.id}`),
      app: urls.app(`/o/${org.id}`),
      ...(org.logo_url ? { logo: org.logo_url } : {}),
    },
    trial: { status: 'notapplicable', count: 0 },
    ...(org.custom_hostname ? { customHostname: org.custom_hostname } : {}),
    permissions: {
      view: true,
      access: true,
      admin,
      ownTeam: viewer.ownsTeam,
      createContent: create,
      createOpenAPISpec: create,
      viewBilling: admin,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: admin,
      installIntegration: admin,
    },
  };
}
