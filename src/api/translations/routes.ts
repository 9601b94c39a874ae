/**
 * Translation settings of an organization. Members read; members with the create role or higher
 * add, change and delete them.
 */
import type { App } from '../../core/app.js';
import { caller } from '../../core/auth.js';
import { notFound } from '../../core/errors.js';
import { mapPage, PagedList } from '../../core/paging.js';
import { NoContent } from '../../core/schemas.js';
import { type OrgMembership, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { atLeast } from '../../permissions/roles.js';
import { presentTranslation, translationLocation } from './present.js';
import { createTranslation, deleteTranslation, findTranslation, listTranslations, updateTranslation } from './repo.js';
import {
  CreateTranslationBody,
  ListQuery,
  OrgParams,
  TranslationParams,
  TranslationSettings,
  UpdateTranslationBody,
} from './schemas.js';

const tags = ['translations'];
const WRITE_ROLE = 'create';

const canEdit = (membership: OrgMembership) => atLeast(membership.role, WRITE_ROLE);

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
      return mapPage(page, (row) => presentTranslation(row, canEdit(membership), app.urls));
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
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      requireOrgRole(membership, WRITE_ROLE, 'create translation settings');
      const { title, languages = [] } = request.body;
      const row = await createTranslation(app.db, organizationId, { title, languages });
      reply.code(201).header('location', translationLocation(row, app.urls));
      return presentTranslation(row, canEdit(membership), app.urls);
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
      return presentTranslation(row, canEdit(membership), app.urls);
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
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadTranslation(organizationId, translationSettingsId);
      requireOrgRole(membership, WRITE_ROLE, 'change translation settings');
      const row = await updateTranslation(app.db, translationSettingsId, request.body);
      return presentTranslation(row, canEdit(membership), app.urls);
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
      const membership = await requireOrgMember(app.db, organizationId, caller(request).user.id);
      await loadTranslation(organizationId, translationSettingsId);
      requireOrgRole(membership, WRITE_ROLE, 'delete translation settings');
      await deleteTranslation(app.db, translationSettingsId);
      return reply.code(204).send(null);
    },
  );
}
