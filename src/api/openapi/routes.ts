/**
 * OpenAPI specifications and their versions. Organization members read; members with the create
 * role or higher add, change and delete. Creating or changing a source queues a processing job
 * (see process.ts); the response says `processingState: pending` and the versions follow.
 */

import type { OpenapiSpecRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, mapPage, PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { canEdit, requireOrgMember } from '../../permissions/organization.js';
import { presentContent, presentSpec, presentVersion, specLocation } from './present.js';
import { findSpec, findVersion, listSpecs, listVersions } from './repo.js';
import {
  CreateSpecBody,
  OpenAPISpec,
  OpenAPISpecContent,
  OpenAPISpecRawContent,
  OpenAPISpecVersion,
  OrgParams,
  PutSpecBody,
  PutSpecParams,
  SpecParams,
  UpdateSpecBody,
  VersionParams,
} from './schemas.js';
import { createOpenApiSpec, deleteOpenApiSpec, putOpenApiSpec, updateOpenApiSpecVisibility } from './service.js';

const specTags = ['openapi'];
const versionTags = ['openapi-versions'];

export default async function openapiRoutes(app: App) {
  const fetchOptions = { allowPrivate: app.config.fetchAllowPrivate };

  async function loadSpec(organizationId: string, slug: string): Promise<OpenapiSpecRow> {
    const spec = await findSpec(app.db, organizationId, slug);
    if (!spec) throw notFound(`OpenAPI specification ${slug} not found`);
    return spec;
  }

  app.get(
    '/orgs/:organizationId/openapi',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'listOpenAPISpecs',
        tags: specTags,
        params: OrgParams,
        querystring: ListQuery,
        response: { 200: PagedList(OpenAPISpec) },
      },
    },
    async (request) => {
      const membership = await requireOrgMember(app.db, request.params.organizationId, caller(request).user.id);
      const page = await listSpecs(app.db, membership.organizationId, request.query);
      return mapPage(page, (spec) => presentSpec(spec, canEdit(membership), app.urls));
    },
  );

  app.post(
    '/orgs/:organizationId/openapi',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'createOpenAPISpec',
        tags: specTags,
        params: OrgParams,
        body: CreateSpecBody,
        response: { 201: OpenAPISpec },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(app, request);
      const created = await createOpenApiSpec(ctx, request.params.organizationId, request.body, fetchOptions);
      reply.code(201).header('location', specLocation(created.spec, app.urls));
      return presentSpec(created.spec, created.canEdit, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecBySlug',
        tags: specTags,
        params: SpecParams,
        response: { 200: OpenAPISpec },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      return presentSpec(await loadSpec(organizationId, specSlug), canEdit(membership), app.urls);
    },
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        tags: specTags,
        params: PutSpecParams,
        body: PutSpecBody,
        response: { 200: OpenAPISpec, 201: OpenAPISpec },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const ctx = serviceContext(app, request);
      const put = await putOpenApiSpec(ctx, organizationId, specSlug, request.body.source, fetchOptions);
      if (put.created) reply.code(201).header('location', specLocation(put.spec, app.urls));
      return presentSpec(put.spec, put.canEdit, app.urls);
    },
  );

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'updateOpenAPISpecBySlug',
        tags: specTags,
        params: SpecParams,
        body: UpdateSpecBody,
        response: { 200: OpenAPISpec },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const ctx = serviceContext(app, request);
      const changed = await updateOpenApiSpecVisibility(ctx, organizationId, specSlug, request.body.visibility);
      return presentSpec(changed.spec, changed.canEdit, app.urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'deleteOpenAPISpecBySlug',
        tags: specTags,
        params: SpecParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      await deleteOpenApiSpec(serviceContext(app, request), organizationId, specSlug);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'listOpenAPISpecVersions',
        tags: versionTags,
        params: SpecParams,
        querystring: ListQuery,
        response: { 200: PagedList(OpenAPISpecVersion) },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const spec = await loadSpec(organizationId, specSlug);
      const page = await listVersions(app.db, spec.id, request.query);
      return mapPage(page, (version) => presentVersion(spec, version, app.urls));
    },
  );

  /** The version `versionId` names ("latest": the newest complete one). */
  async function loadVersion(params: { organizationId: string; specSlug: string }, versionId: string, userId: string) {
    const { organizationId, specSlug } = params;
    await requireOrgMember(app.db, organizationId, userId);
    const spec = await loadSpec(organizationId, specSlug);
    const id = versionId === 'latest' ? spec.last_version_id : versionId;
    const version = id ? await findVersion(app.db, spec.id, id) : undefined;
    if (!version) {
      throw notFound(
        versionId === 'latest'
          ? `OpenAPI specification ${specSlug} has no processed version yet`
          : `version ${versionId} of OpenAPI specification ${specSlug} not found`,
      );
    }
    return { spec, version };
  }

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersion',
        tags: versionTags,
        params: SpecParams,
        response: { 200: OpenAPISpecVersion },
      },
    },
    async (request) => {
      const { spec, version } = await loadVersion(request.params, 'latest', caller(request).user.id);
      return presentVersion(spec, version, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersionContent',
        tags: versionTags,
        params: SpecParams,
        response: { 200: OpenAPISpecContent },
      },
    },
    async (request) => {
      const { spec, version } = await loadVersion(request.params, 'latest', caller(request).user.id);
      return presentContent(spec, version, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersionContentRaw',
        tags: versionTags,
        params: SpecParams,
        response: { 200: OpenAPISpecRawContent },
      },
    },
    async (request) => {
      const { version } = await loadVersion(request.params, 'latest', caller(request).user.id);
      if (version.raw_text === null || version.raw_format === null) {
        throw notFound(`version ${version.id} was stored without its raw source; update the specification to keep it`);
      }
      return { text: version.raw_text, format: version.raw_format as 'json' | 'yaml' };
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecVersionById',
        tags: versionTags,
        params: VersionParams,
        response: { 200: OpenAPISpecVersion },
      },
    },
    async (request) => {
      const { spec, version } = await loadVersion(request.params, request.params.versionId, caller(request).user.id);
      return presentVersion(spec, version, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecVersionContentById',
        tags: versionTags,
        params: VersionParams,
        response: { 200: OpenAPISpecContent },
      },
    },
    async (request) => {
      const { spec, version } = await loadVersion(request.params, request.params.versionId, caller(request).user.id);
      return presentContent(spec, version, app.urls);
    },
  );
}
