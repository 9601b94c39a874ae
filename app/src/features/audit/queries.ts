/** The organization's audit log, its actions and its members (to filter by actor). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../api/client';
import type { List } from '../../api/types';
import { auditQuery } from './filters';
import type { AuditEvent, AuditEventAction, AuditFilters } from './types';

const orgPath = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}`;

export const AUDIT_PAGE = 20;

export const auditEventsQuery = (organizationId: string, filters: AuditFilters, page?: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'audit-events', filters, page ?? ''],
    queryFn: ({ signal }) =>
      request<List<AuditEvent>>(`${orgPath(organizationId)}/audit-events?${auditQuery(filters, AUDIT_PAGE, page)}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const auditActionsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'audit-event-actions'],
    queryFn: ({ signal }) =>
      request<{ items: AuditEventAction[] }>(`${orgPath(organizationId)}/audit-event-actions`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
