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
import { secretsKey } from '../../core/secrets.js';
import type { IntegrationRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { PagedList } from '../../lib/paging.js';
import { authorizeSpace } from '../../permissions/content.js';
import { type IntegrationViewer, isIntegrationAdmin, loadIntegrationViewer } from '../../permissions/integrations.js';
import { presentSpaces } from '../spaces/present.js';
import { spaceExtras } from '../spaces/repo.js';
import { integrationPath, presentInstallation, presentIntegrations, presentSpaceInstallation } from './present.js';
import {
  findImage,
  integrationOwners,
  listIntegrations,
  listSpaceIntegrations,
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
import {
  findVisibleIntegration,
  installIntegration,
  installIntegrationOnSpace,
  publishIntegration,
} from './service.js';

const tags = ['integrations'];

export default async function integrationRoutes(app: App) {
  const loadVisible = (name: string, viewer: IntegrationViewer) => findVisibleIntegration(app.db, name, viewer);

  /** Integrations as the viewer sees them, their owners loaded in one query. */
  async function present(rows: IntegrationRow[], viewer: IntegrationViewer) {
    return presentIntegrations(rows, await integrationOwners(app.db, rows), viewer, app.urls);
  }

  async function presentOne(name: string, viewer: IntegrationViewer) {
    const row = await loadVisible(name, viewer);
    const [presented] = await present([row], viewer);
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
      return { ...page, items: await present(page.items, viewer) };
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
      const { created, viewer } = await publishIntegration(serviceContext(app, request), name, request.body, {
        secretsKey: () => secretsKey(app.db, app.config.secretsKey, request.log),
      });
      if (created) reply.code(201).header('location', app.urls.api(integrationPath(name)));
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
      const row = await installIntegration(serviceContext(app, request), name, request.body.organization);
      const installation = presentInstallation(row, 0, app.urls);
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
      const ctx = serviceContext(app, request);
      const { installation, row, space } = await installIntegrationOnSpace(
        ctx,
        name,
        installationId,
        request.body.space,
      );
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
      return { ...page, items: await present(page.items, viewer) };
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
