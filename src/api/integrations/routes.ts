/**
 * Integrations: the marketplace list, reading and publishing an integration, its icon, previews and
 * script, installing it on an organization and on spaces, and what is installed on a space.
 *
 * Visibility: `public` integrations exist for every authenticated user, `unlisted` ones too but only
 * by name (never in lists), `private` ones only for members of the owning organization (404 for
 * everyone else). Admins of the owning organization republish (403 for other callers who see it).
 * `secrets` are sealed with AES-256-GCM and never returned; the `script` is served only to admins of
 * the owning organization, by `GET /v1/integrations/{name}/script` (it is never a field of Integration).
 * Icons and previews are public (`urls.icon`, `previewImages`).
 */
import type { FastifyReply } from 'fastify';
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import { PagedList } from '../../core/paging.js';
import { encryptSecret, secretsKey } from '../../core/secrets.js';
import { authorizeSpace } from '../../permissions/content.js';
import { presentSpaces } from '../spaces/present.js';
import { spaceExtras } from '../spaces/repo.js';
import { decodeImage } from './images.js';
import {
  canSeeIntegration,
  type IntegrationViewer,
  integrationPath,
  isIntegrationAdmin,
  loadIntegrationViewer,
  presentInstallation,
  presentIntegrations,
  presentSpaceInstallation,
} from './present.js';
import {
  createInstallation,
  findImage,
  findInstallation,
  findInstallationInOrg,
  findIntegration,
  findOrganizationByKey,
  type Image,
  installOnSpace,
  listIntegrations,
  listSpaceIntegrations,
  saveIntegration,
  spaceIntegrationBlocks,
} from './repo.js';
import {
  Installation,
  InstallationParams,
  InstallBody,
  InstallOnSpaceBody,
  InstallOnSpaceQuery,
  Integration,
  IntegrationParams,
  ListIntegrationsQuery,
  PreviewParams,
  PublishBody,
  SpaceInstallation,
  SpaceIntegrationBlocks,
  SpaceIntegrationsQuery,
  SpaceParams,
} from './schemas.js';

const tags = ['integrations'];

/** Targets an integration may be enabled on spaces with. */
const SPACE_TARGETS = new Set(['all', 'space']);

export default async function integrationRoutes(app: App) {
  /** The integration if the caller may see it, else 404. */
  async function loadVisible(name: string, viewer: IntegrationViewer) {
    const row = await findIntegration(app.db, name);
    if (!row || !canSeeIntegration(viewer, row)) throw notFound(`integration ${name} not found`);
    return row;
  }

  async function presentOne(name: string, viewer: IntegrationViewer) {
    const row = await loadVisible(name, viewer);
    const [presented] = await presentIntegrations(app.db, [row], viewer, app.urls);
    if (!presented) throw notFound(`integration ${name} not found`);
    return presented;
  }

  async function sendImage(name: string, slot: string, reply: FastifyReply) {
    const image = await findImage(app.db, name, slot);
    if (!image) throw notFound(`integration ${name} has no such image`);
    return reply
      .header('content-type', image.content_type)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(Buffer.from(image.data));
  }

  app.get(
    '/integrations',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'listIntegrations',
        tags,
        querystring: ListIntegrationsQuery,
        response: { 200: PagedList(Integration) },
      },
    },
    async (request) => {
      const userId = caller(request).user.id;
      const [viewer, page] = await Promise.all([
        loadIntegrationViewer(app.db, userId),
        listIntegrations(app.db, userId, request.query),
      ]);
      return { ...page, items: await presentIntegrations(app.db, page.items, viewer, app.urls) };
    },
  );

  app.get(
    '/integrations/:integrationName',
    {
      config: { scope: 'integration:read' },
      schema: { operationId: 'getIntegrationByName', tags, params: IntegrationParams, response: { 200: Integration } },
    },
    async (request) => {
      const viewer = await loadIntegrationViewer(app.db, caller(request).user.id);
      return presentOne(request.params.integrationName, viewer);
    },
  );

  app.post(
    '/integrations/:integrationName',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'publishIntegration',
        tags,
        description:
          'Publishes a new integration (201, version 1) or a new version of an existing one (200, version + 1). ' +
          'Every field is replaced, except `secrets`, which are kept when absent. Icon and preview images are ' +
          'base64, at most 1 MiB each decoded.',
        params: IntegrationParams,
        body: PublishBody,
        response: { 200: Integration, 201: Integration },
      },
    },
    async (request, reply) => {
      const name = request.params.integrationName;
      const body = request.body;
      const viewer = await loadIntegrationViewer(app.db, caller(request).user.id);
      const existing = await findIntegration(app.db, name);
      if (existing && !isIntegrationAdmin(viewer, existing)) {
        if (!canSeeIntegration(viewer, existing)) throw notFound(`integration ${name} not found`);
        throw forbidden(`only admins of the organization that owns integration ${name} can publish it`);
      }
      const org = await findOrganizationByKey(app.db, body.organization);
      const role = org ? viewer.roles.get(org.id) : undefined;
      if (!org || role === undefined) throw notFound(`organization ${body.organization} not found`);
      if (role !== 'admin') throw forbidden('you need the admin role in the organization to publish integrations');
      if (existing && existing.organization_id !== org.id) {
        throw badRequest(`body/organization: integration ${name} belongs to another organization`);
      }

      const images: Image[] = [];
      if (body.icon !== undefined) images.push(decodeImage(body.icon, 'body/icon', 'icon'));
      const previews = body.previewImages ?? [];
      previews.forEach((p, i) => {
        images.push(decodeImage(p, `body/previewImages/${i}`, `preview-${i}`));
      });
      const blocks = body.blocks ?? [];
      const contentSources = body.contentSources ?? [];
      const secrets =
        body.secrets === undefined
          ? undefined
          : encryptSecret(
              await secretsKey(app.db, app.config.secretsKey, request.log),
              JSON.stringify(body.secrets),
              name,
            );
      await saveIntegration(
        app.db,
        {
          name,
          organization_id: org.id,
          title: body.title,
          description: body.description,
          summary: body.summary ?? null,
          visibility: body.visibility ?? 'public',
          target: body.target ?? 'all',
          scopes: JSON.stringify(body.scopes),
          categories: JSON.stringify(body.categories ?? []),
          blocks: JSON.stringify(blocks),
          content_sources: JSON.stringify(contentSources),
          configurations: JSON.stringify(body.configurations ?? {}),
          external_links: JSON.stringify(body.externalLinks ?? []),
          content_security_policy:
            body.contentSecurityPolicy === undefined ? null : JSON.stringify(body.contentSecurityPolicy),
          script: body.script,
          secrets,
          has_blocks: blocks.length > 0 ? 1 : 0,
          has_content_sources: contentSources.length > 0 ? 1 : 0,
          block_urls: blocks
            .flatMap((b) => b.urlUnfurl ?? [])
            .map((u) => u.toLowerCase())
            .join('\n'),
          preview_count: previews.length,
          has_icon: body.icon !== undefined ? 1 : 0,
        },
        images,
        existing !== undefined,
      );
      if (!existing) reply.code(201).header('location', app.urls.api(integrationPath(name)));
      return presentOne(name, viewer);
    },
  );

  app.get(
    '/integrations/:integrationName/script',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'getIntegrationScript',
        tags,
        description: 'The published script (`application/javascript`); only for admins of the owning organization.',
        params: IntegrationParams,
      },
    },
    async (request, reply) => {
      const name = request.params.integrationName;
      const viewer = await loadIntegrationViewer(app.db, caller(request).user.id);
      const row = await loadVisible(name, viewer);
      if (!isIntegrationAdmin(viewer, row)) {
        throw forbidden(`only admins of the organization that owns integration ${name} can read its script`);
      }
      return reply.type('application/javascript; charset=utf-8').send(row.script);
    },
  );

  app.get(
    '/integrations/:integrationName/icon',
    {
      config: { public: true },
      schema: {
        operationId: 'getIntegrationIcon',
        tags,
        description: 'The icon as published (public, no token needed).',
        params: IntegrationParams,
      },
    },
    async (request, reply) => sendImage(request.params.integrationName, 'icon', reply),
  );

  app.get(
    '/integrations/:integrationName/previews/:index',
    {
      config: { public: true },
      schema: {
        operationId: 'getIntegrationPreviewImage',
        tags,
        description: 'A preview image as published (public, no token needed).',
        params: PreviewParams,
      },
    },
    async (request, reply) => sendImage(request.params.integrationName, `preview-${request.params.index}`, reply),
  );

  app.post(
    '/integrations/:integrationName/installations',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'installIntegration',
        tags,
        params: IntegrationParams,
        body: InstallBody,
        response: { 201: Installation },
      },
    },
    async (request, reply) => {
      const name = request.params.integrationName;
      const viewer = await loadIntegrationViewer(app.db, caller(request).user.id);
      await loadVisible(name, viewer);
      const organizationId = request.body.organization;
      const role = viewer.roles.get(organizationId);
      if (role === undefined) throw notFound(`organization ${organizationId} not found`);
      if (role !== 'admin') throw forbidden('you need the admin role in the organization to install integrations');
      if (await findInstallationInOrg(app.db, name, organizationId)) {
        throw conflict(`integration ${name} is already installed on organization ${organizationId}`);
      }
      const installation = presentInstallation(await createInstallation(app.db, name, organizationId), 0, app.urls);
      reply.code(201).header('location', installation.urls.location);
      return installation;
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'installIntegrationOnSpace',
        tags,
        params: InstallationParams,
        querystring: InstallOnSpaceQuery,
        body: InstallOnSpaceBody,
        response: { 201: SpaceInstallation },
      },
    },
    async (request, reply) => {
      const { integrationName: name, installationId } = request.params;
      const userId = caller(request).user.id;
      const viewer = await loadIntegrationViewer(app.db, userId);
      const integration = await loadVisible(name, viewer);
      const installation = await findInstallation(app.db, name, installationId);
      if (!installation || !viewer.roles.has(installation.organization_id)) {
        throw notFound(`installation ${installationId} not found`);
      }
      const space = await authorizeSpace(app.db, userId, request.body.space, 'admin', 'install integrations on it');
      if (space.row.organization_id !== installation.organization_id) {
        throw badRequest(`body/space: space ${space.row.id} is not in the organization of the installation`);
      }
      if (!SPACE_TARGETS.has(integration.target)) {
        throw badRequest(`integration ${name} cannot be installed on spaces (its target is ${integration.target})`);
      }
      const row = await installOnSpace(app.db, installation, space.row.id);
      const spaceValue = request.query.extended
        ? (presentSpaces([space.row], space.viewer, await spaceExtras(app.db, [space.row]), app.urls)[0] ??
          space.row.id)
        : space.row.id;
      const presented = presentSpaceInstallation(installation, row.configuration, spaceValue, app.urls);
      reply.code(201).header('location', presented.urls.location);
      return presented;
    },
  );

  app.get(
    '/spaces/:spaceId/integrations',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpaceIntegrations',
        tags: ['space-integrations'],
        params: SpaceParams,
        querystring: SpaceIntegrationsQuery,
        response: { 200: PagedList(Integration) },
      },
    },
    async (request) => {
      const userId = caller(request).user.id;
      const { spaceId } = request.params;
      await authorizeSpace(app.db, userId, spaceId, 'read', 'list its integrations');
      const [viewer, page] = await Promise.all([
        loadIntegrationViewer(app.db, userId),
        listSpaceIntegrations(app.db, spaceId, userId, request.query),
      ]);
      return { ...page, items: await presentIntegrations(app.db, page.items, viewer, app.urls) };
    },
  );

  app.get(
    '/spaces/:spaceId/integration-blocks',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpaceIntegrationsBlocks',
        tags: ['space-integrations'],
        params: SpaceParams,
        response: { 200: SpaceIntegrationBlocks },
      },
    },
    async (request) => {
      const userId = caller(request).user.id;
      const { spaceId } = request.params;
      await authorizeSpace(app.db, userId, spaceId, 'read', 'list its integration blocks');
      const rows = await spaceIntegrationBlocks(app.db, spaceId, userId);
      return rows.map((r) => ({ name: r.name, blocks: JSON.parse(r.blocks) }));
    },
  );
}
