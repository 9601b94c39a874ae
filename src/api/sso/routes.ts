/**
 * The official `sso` operations: an organization's SAML providers (its admins'), and the sign-in
 * choices of an organization (public: a sign-in page shows them to people not signed in yet).
 * The sign-in itself is served outside the API, under /auth (src/auth).
 */

import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { findOrganization } from '../organizations/repo.js';
import { presentLogin } from './present.js';
import * as repo from './repo.js';
import {
  CreateProviderBody,
  ListProvidersQuery,
  OrgParams,
  ProviderParams,
  SamlProvider,
  SsoProviderLogin,
  UpdateProviderBody,
} from './schemas.js';
import * as service from './service.js';

const tags = ['sso'];
const READ = { scope: 'organization:read' } as const;
const WRITE = { scope: 'organization:write' } as const;

export default async function ssoRoutes(app: App) {
  app.get(
    '/orgs/:organizationId/saml',
    {
      config: READ,
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        summary: 'List all SAML providers',
        tags,
        params: OrgParams,
        querystring: ListProvidersQuery,
        response: { 200: PagedList(SamlProvider) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await service.authorizeSamlProviders(app.db, organizationId, caller(request).user.id, 'list SAML providers');
      const page = await repo.listProviders(app.db, organizationId, request.query);
      const items = [];
      for (const row of page.items) items.push(await service.presented(app.db, row, app.urls));
      return { ...page, items };
    },
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      config: WRITE,
      schema: {
        operationId: 'createOrganizationSAMLProvider',
        summary: 'Create a new SAML provider',
        tags,
        params: OrgParams,
        body: CreateProviderBody,
        response: { 201: SamlProvider },
      },
    },
    async (request, reply) => {
      const provider = await service.createProvider(
        serviceContext(app, request),
        request.params.organizationId,
        request.body,
      );
      reply.code(201).header('location', provider.urls.location);
      return provider;
    },
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: READ,
      schema: {
        operationId: 'getOrganizationSAMLProviderById',
        summary: 'Get a SAML provider by its ID',
        tags,
        params: ProviderParams,
        response: { 200: SamlProvider },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const row = await service.loadProvider(app.db, organizationId, caller(request).user.id, samlProviderId);
      return service.presented(app.db, row, app.urls);
    },
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: WRITE,
      schema: {
        operationId: 'updateOrganizationSAMLProvider',
        summary: 'Update a SAML provider',
        tags,
        params: ProviderParams,
        body: UpdateProviderBody,
        response: { 200: SamlProvider },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      return service.updateProvider(serviceContext(app, request), organizationId, samlProviderId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: WRITE,
      schema: {
        operationId: 'deleteOrganizationSAMLProvider',
        summary: 'Delete a SAML provider: 205 when deleted, 204 when it did not exist',
        tags,
        params: ProviderParams,
        response: { 204: NoContent, 205: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, samlProviderId } = request.params;
      const deleted = await service.deleteProvider(serviceContext(app, request), organizationId, samlProviderId);
      return reply.code(deleted ? 205 : 204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      config: { public: true },
      schema: {
        operationId: 'listSSOProviderLoginsInOrganization',
        summary: 'List all SSO provider login infos (no token needed: a sign-in page shows them)',
        tags,
        params: OrgParams,
        response: { 200: Type.Object({ items: Type.Array(SsoProviderLogin) }) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      if (!(await findOrganization(app.db, organizationId))) throw notFound(`organization ${organizationId} not found`);
      const rows = await repo.listActiveProviders(app.db, organizationId);
      return { items: rows.map((row) => presentLogin(row, app.urls)) };
    },
  );
}
