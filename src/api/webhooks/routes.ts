/**
 * Webhooks (a Bindery extension): an organization's admins subscribe URLs to its events; each
 * delivery is signed under Standard Webhooks and retried (src/events/webhooks/deliver.ts runs the jobs).
 */
import { Type } from 'typebox';
import { secretsKey } from '../../core/secrets.js';
import { findWebhookDelivery, listDeliveries, listWebhooks } from '../../events/webhooks/repo.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { mapPage, PagedList, PageQuery } from '../../lib/paging.js';
import { NoContent, Params } from '../../lib/schemas.js';
import { authorizeWebhooks } from '../../permissions/organization.js';
import { presentDelivery, presentWebhook } from './present.js';
import {
  CreateWebhookBody,
  DeliveryParams,
  ListDeliveriesQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookParams,
  WebhookWithSecret,
} from './schemas.js';
import * as service from './service.js';

const tags = ['webhooks'];
const OrgParams = Type.Object({ organizationId: Params.organizationId });
const READ = { scope: 'organization:webhooks:read' } as const;
const WRITE = { scope: 'organization:webhooks:write' } as const;

export default async function webhookRoutes(app: App) {
  const settings = async (request: { log: App['log'] }) => ({
    secretsKey: await secretsKey(app.db, app.config.secretsKey, request.log),
    fetchAllowPrivate: app.config.fetchAllowPrivate,
  });
  const withSecret = (result: { webhook: Parameters<typeof presentWebhook>[0]; secret: string }) => ({
    ...presentWebhook(result.webhook, app.urls),
    secret: result.secret,
  });

  app.post(
    '/orgs/:organizationId/webhooks',
    {
      config: WRITE,
      schema: {
        operationId: 'createOrganizationWebhook',
        summary: 'Create a webhook (Bindery extension); the response is the only one showing its secret',
        tags,
        params: OrgParams,
        body: CreateWebhookBody,
        response: { 201: WebhookWithSecret },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const result = await service.createWebhook(
        serviceContext(app, request),
        organizationId,
        request.body,
        await settings(request),
      );
      reply.code(201).header('location', app.urls.api(`/orgs/${organizationId}/webhooks/${result.webhook.id}`));
      return withSecret(result);
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks',
    {
      config: READ,
      schema: {
        operationId: 'listOrganizationWebhooks',
        tags,
        params: OrgParams,
        querystring: Type.Object(PageQuery),
        response: { 200: PagedList(Webhook) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await authorizeWebhooks(app.db, organizationId, caller(request).user.id, 'list webhooks');
      const page = await listWebhooks(app.db, organizationId, request.query);
      return mapPage(page, (row) => presentWebhook(row, app.urls));
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config: READ,
      schema: { operationId: 'getOrganizationWebhook', tags, params: WebhookParams, response: { 200: Webhook } },
    },
    async (request) => {
      const { organizationId, webhookId } = request.params;
      const row = await service.loadWebhook(app.db, organizationId, caller(request).user.id, webhookId, 'see webhooks');
      return presentWebhook(row, app.urls);
    },
  );

  app.patch(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config: WRITE,
      schema: {
        operationId: 'updateOrganizationWebhook',
        tags,
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook },
      },
    },
    async (request) => {
      const { organizationId, webhookId } = request.params;
      const row = await service.updateWebhook(
        serviceContext(app, request),
        organizationId,
        webhookId,
        request.body,
        await settings(request),
      );
      return presentWebhook(row, app.urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config: WRITE,
      schema: { operationId: 'deleteOrganizationWebhook', tags, params: WebhookParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, webhookId } = request.params;
      await service.deleteWebhook(serviceContext(app, request), organizationId, webhookId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/webhooks/:webhookId/rotate-secret',
    {
      config: WRITE,
      schema: {
        operationId: 'rotateOrganizationWebhookSecret',
        summary: 'Replace the signing secret; the response is the only one showing the new one',
        tags,
        params: WebhookParams,
        response: { 200: WebhookWithSecret },
      },
    },
    async (request) => {
      const { organizationId, webhookId } = request.params;
      const result = await service.rotateWebhookSecret(
        serviceContext(app, request),
        organizationId,
        webhookId,
        await settings(request),
      );
      return withSecret(result);
    },
  );

  app.post(
    '/orgs/:organizationId/webhooks/:webhookId/ping',
    {
      config: WRITE,
      schema: {
        operationId: 'pingOrganizationWebhook',
        summary: 'Send a webhook.ping event to this webhook',
        tags,
        params: WebhookParams,
        response: { 202: WebhookDelivery },
      },
    },
    async (request, reply) => {
      const { organizationId, webhookId } = request.params;
      const delivery = await service.pingWebhook(serviceContext(app, request), organizationId, webhookId);
      return reply.code(202).send(presentDelivery(delivery));
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries',
    {
      config: READ,
      schema: {
        operationId: 'listOrganizationWebhookDeliveries',
        summary: 'Deliveries of a webhook, newest first',
        tags,
        params: WebhookParams,
        querystring: ListDeliveriesQuery,
        response: { 200: PagedList(WebhookDelivery) },
      },
    },
    async (request) => {
      const { organizationId, webhookId } = request.params;
      await service.loadWebhook(app.db, organizationId, caller(request).user.id, webhookId, 'see webhooks');
      const { status, ...paging } = request.query;
      return mapPage(await listDeliveries(app.db, webhookId, { status }, paging), presentDelivery);
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId',
    {
      config: READ,
      schema: {
        operationId: 'getOrganizationWebhookDelivery',
        tags,
        params: DeliveryParams,
        response: { 200: WebhookDelivery },
      },
    },
    async (request) => {
      const { organizationId, webhookId, deliveryId } = request.params;
      await service.loadWebhook(app.db, organizationId, caller(request).user.id, webhookId, 'see webhooks');
      const delivery = await findWebhookDelivery(app.db, webhookId, deliveryId);
      if (!delivery) throw notFound(`delivery ${deliveryId} not found`);
      return presentDelivery(delivery);
    },
  );

  app.post(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: WRITE,
      schema: {
        operationId: 'redeliverOrganizationWebhookDelivery',
        summary: 'Send a delivery again now (the retry schedule starts over)',
        tags,
        params: DeliveryParams,
        response: { 202: WebhookDelivery },
      },
    },
    async (request, reply) => {
      const { organizationId, webhookId, deliveryId } = request.params;
      const delivery = await service.redeliver(serviceContext(app, request), organizationId, webhookId, deliveryId);
      return reply.code(202).send(presentDelivery(delivery));
    },
  );
}
