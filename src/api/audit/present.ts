/** Events as the audit log shows them (the official AuditEvent shapes). Pure. */

import type { EventRow } from '../../db/schema.js';
import { EVENT_TYPES } from '../../events/types.js';
import type { Urls } from '../../lib/urls.js';

/** Where a change came from, in the official document's vocabulary. */
const SOURCES = { api: 'api', cli: 'script', system: 'workflow' } as const;

export function presentAuditEvent(row: EventRow, urls: Urls) {
  return {
    object: 'audit-event' as const,
    id: row.id,
    occurredAt: row.created_at,
    action: row.type,
    actor: {
      type: row.actor_type === 'user' ? ('user' as const) : ('system' as const),
      id: row.actor_id ?? 'system',
      ...(row.actor_label ? { label: row.actor_label } : {}),
    },
    source: SOURCES[row.source as keyof typeof SOURCES] ?? 'api',
    target: {
      type: row.target_object,
      id: row.target_id,
      ...(row.target_label ? { label: row.target_label } : {}),
    },
    urls: { location: urls.api(`/orgs/${row.organization_id}/audit-events/${row.id}`) },
  };
}

export function presentAuditEventDetails(row: EventRow, urls: Urls) {
  return {
    ...presentAuditEvent(row, urls),
    schemaVersion: 1,
    payload: JSON.parse(row.data) as Record<string, unknown>,
  };
}

export function presentAuditActions() {
  return Object.entries(EVENT_TYPES).map(([id, label]) => ({ object: 'audit-event-action' as const, id, label }));
}
