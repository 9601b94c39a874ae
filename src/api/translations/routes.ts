/**
 * Translation settings of an organization. Members read; members with the create role or higher
 * add, change and delete them.
 */
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { notFound } from '../../lib/errors.js';
import { ListQuery, mapPage, PagedList } from '../../lib/paging.js';
import { NoContent } from '../../lib/schemas.js';
import { canEdit, requireOrgMember } from '../../permissions/organization.js';
import { presentTranslation, translationLocation } from './present.js';
import { findTranslation, listResults, listTranslations } from './repo.js';
import { runTranslation } from './run.js';
import {
  CreateTranslationBody,
  OrgParams,
  TranslationParams,
  TranslationSettings,
  UpdateTranslationBody,
} from './schemas.js';
import { createTranslationSettings, deleteTranslationSettings, updateTranslationSettings } from './service.js';

const tags = ['translations'];

export default async function translationRoutes(app: App) {
  async function loadTranslation(organizationId: string, id: string) {
    const row = await findTranslation(app.db, organizationId, id);
    if (!row) throw notFound(`translation settings ${id} not found`);
    return row;
  }

  app.get(
    '/orgs/:organizationId/translations',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listTranslations',
        tags,
        params: OrgParams,
        querystring: ListQuery,
        response: { 200: PagedList(TranslationSettings) },
      },
    },
    async (request) => {
      const membership = await requireOrgMember(app.db, request.params.organizationId, caller(request).user.id);
      const page = await listTranslations(app.db, membership.organizationId, request.query);
      const results = await listResults(
        app.db,
        page.items.map((row) => row.id),
      );
      return mapPage(page, (row) => presentTranslation(row, results.get(row.id) ?? [], canEdit(membership), app.urls));
    },
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createTranslation',
        tags,
        params: OrgParams,
        body: CreateTranslationBody,
        response: { 201: TranslationSettings },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const created = await createTranslationSettings(serviceContext(app, request), organizationId, request.body);
      reply.code(201).header('location', translationLocation(created.row, app.urls));
      return presentTranslation(created.row, created.results, created.canEdit, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getTranslation',
        tags,
        params: TranslationParams,
        response: { 200: TranslationSettings },
      },
    },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      const row = await loadTranslation(organizationId, translationSettingsId);
      const results = (await listResults(app.db, [row.id])).get(row.id) ?? [];
      return presentTranslation(row, results, canEdit(membership), app.urls);
    },
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateTranslation',
        tags,
        params: TranslationParams,
        body: UpdateTranslationBody,
        response: { 200: TranslationSettings },
      },
    },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const ctx = serviceContext(app, request);
      const updated = await updateTranslationSettings(ctx, organizationId, translationSettingsId, request.body);
      return presentTranslation(updated.row, updated.results, updated.canEdit, app.urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:write' },
      schema: { operationId: 'deleteTranslation', tags, params: TranslationParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      await deleteTranslationSettings(serviceContext(app, request), organizationId, translationSettingsId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orgs/:organizationId/translations/:translationSettingsId/run',
    {
      config: { scope: 'organization:write' },
      schema: { operationId: 'runTranslation', tags, params: TranslationParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      await runTranslation(serviceContext(app, request), organizationId, translationSettingsId, app.config.ai);
      return reply.code(204).send(null);
    },
  );
}
