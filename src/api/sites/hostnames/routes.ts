/**
 * Where sites live: custom hostnames (`/custom-hostnames/{hostname}`: claim one for a site, read it,
 * verify it by DNS, remove it) and the organization addresses (`/subdomains/{subdomain}`: Bindery's
 * subdomain is the organization `hostname` of `PUBLIC_URL/sites/<hostname>/…`). What a caller cannot
 * see does not exist for them (404), whoever owns it.
 */
import type { App } from '../../../http/app.js';
import { caller } from '../../../http/auth.js';
import { serviceContext } from '../../../http/service-context.js';
import { notFound } from '../../../lib/errors.js';
import { NoContent } from '../../../lib/schemas.js';
import { findMembership } from '../../../permissions/organization.js';
import { presentClaim, presentOrganizationHostname } from './present.js';
import { organizationByCustomHostname, organizationBySubdomain } from './repo.js';
import { CustomHostname, HostnameParams, SetCustomHostnameBody, Subdomain, SubdomainParams } from './schemas.js';
import { claimsFor, removeCustomHostname, revalidateCustomHostname, setCustomHostname } from './service.js';

const tags = ['custom-hostnames'];

export default async function hostnameRoutes(app: App) {
  const publicHost = new URL(app.config.publicUrl).host;

  /** Whether the caller is an enabled member (guests included) of `organizationId`. */
  const memberOf = async (userId: string, organizationId: string) => {
    const membership = await findMembership(app.db, organizationId, userId);
    return membership !== null && !membership.disabled;
  };

  app.put(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:publish' },
      schema: {
        operationId: 'setCustomHostname',
        summary: 'Claim a custom hostname for a site (pending until its DNS TXT record is verified)',
        tags,
        params: HostnameParams,
        body: SetCustomHostnameBody,
        response: { 200: CustomHostname, 201: CustomHostname },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(app, request);
      const { claim, created } = await setCustomHostname(ctx, request.params.hostname, request.body.site, publicHost);
      return reply.code(created ? 201 : 200).send(presentClaim(claim, app.urls));
    },
  );

  app.get(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getCustomHostname',
        tags,
        params: HostnameParams,
        response: { 200: CustomHostname },
      },
    },
    async (request) => {
      const hostname = request.params.hostname.toLowerCase();
      const [claim] = await claimsFor(serviceContext(app, request), hostname, 'read', 'read it');
      if (claim) return presentClaim(claim, app.urls);
      const organization = await organizationByCustomHostname(app.db, hostname);
      if (organization && (await memberOf(caller(request).user.id, organization.id))) {
        return presentOrganizationHostname(hostname, organization.id, app.urls);
      }
      throw notFound(`custom hostname ${hostname} not found`);
    },
  );

  app.patch(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:publish' },
      schema: {
        operationId: 'dnsRevalidateCustomHostname',
        tags,
        params: HostnameParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await revalidateCustomHostname(serviceContext(app, request), request.params.hostname, app.resolveTxt);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:publish' },
      schema: {
        operationId: 'removeCustomHostname',
        tags,
        params: HostnameParams,
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const removed = await removeCustomHostname(serviceContext(app, request), request.params.hostname);
      return reply.code(removed ? 205 : 204).send(null);
    },
  );

  app.get(
    '/subdomains/:subdomain',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getSubdomain',
        tags: ['subdomains'],
        params: SubdomainParams,
        response: { 200: Subdomain },
      },
    },
    async (request) => {
      const { subdomain } = request.params;
      const organization = await organizationBySubdomain(app.db, subdomain);
      if (!organization || !(await memberOf(caller(request).user.id, organization.id))) {
        throw notFound(`subdomain ${subdomain} not found`);
      }
      return {
        object: 'subdomain' as const,
        subdomain,
        target: { type: 'organization' as const, organization: organization.id },
        isActive: true,
      };
    },
  );
}
