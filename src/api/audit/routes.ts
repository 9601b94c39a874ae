/**
 * The organization audit log (`listOrganizationAuditEvents`, `getOrganizationAuditEvent`,
 * `listOrganizationAuditEventActions`): the events the service layer records, to org admins only,
 * kept `AUDIT_RETENTION_DAYS` (every process with a job worker purges older ones hourly: src/background.ts).
 */

import { Type } from 'typebox';
import { findOrganizationEvent, listOrganizationEvents } from '../../events/repo.js';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { mapPage } from '../../lib/paging.js';
import { requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { presentAuditActions, presentAuditEvent, presentAuditEventDetails } from './present.js';
import {
  AUDIT_DEFAULT_LIMIT,
  AuditEventAction,
  AuditEventDetails,
  AuditEventList,
  AuditEventParams,
  AuditParams,
  ListAuditEventsQuery,
} from './schemas.js';

const tags = ['organizations'];

export default async function auditRoutes(app: App) {
  async function requireAdmin(organizationId: string, userId: string) {
    const membership = await requireOrgMember(app.db, organizationId, userId);
    requireOrgRole(membership, 'admin', 'read the audit log');
  }

  app.get(
    '/orgs/:organizationId/audit-events',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationAuditEvents',
        summary: 'List organization audit events, newest first',
        tags,
        params: AuditParams,
        querystring: ListAuditEventsQuery,
        response: { 200: AuditEventList },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await requireAdmin(organizationId, caller(request).user.id);
      const { page, limit, ...filters } = request.query;
      const events = await listOrganizationEvents(app.db, organizationId, filters, {
        page,
        limit: limit ?? AUDIT_DEFAULT_LIMIT,
      });
      return mapPage(events, (row) => presentAuditEvent(row, app.urls));
    },
  );

  app.get(
    '/orgs/:organizationId/audit-events/:auditEventId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationAuditEvent',
        tags,
        params: AuditEventParams,
        response: { 200: AuditEventDetails },
      },
    },
    async (request) => {
      const { organizationId, auditEventId } = request.params;
      await requireAdmin(organizationId, caller(request).user.id);
      const row = await findOrganizationEvent(app.db, organizationId, auditEventId);
      if (!row) throw notFound(`audit event ${auditEventId} not found`);
      return presentAuditEventDetails(row, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/audit-event-actions',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationAuditEventActions',
        tags,
        params: AuditParams,
        response: { 200: Type.Object({ items: Type.Array(AuditEventAction) }) },
      },
    },
    async (request) => {
      await requireAdmin(request.params.organizationId, caller(request).user.id);
      return { items: presentAuditActions() };
    },
  );
}
