/** Webhooks and deliveries as the API returns them. Pure. */

import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import type { DeliveryAttempt } from '../../events/webhooks/deliver.js';
import type { Urls } from '../../lib/urls.js';

export function presentWebhook(row: WebhookRow, urls: Urls) {
  return {
    object: 'webhook' as const,
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    active: row.active === 1,
    deactivatedReason: row.deactivated_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: urls.api(`/orgs/${row.organization_id}/webhooks/${row.id}`) },
  };
}

export function presentDelivery(row: WebhookDeliveryRow) {
  return {
    object: 'webhook-delivery' as const,
    id: row.id,
    event: { id: row.event_id, type: row.event_type },
    status: row.status as 'pending' | 'succeeded' | 'failed',
    attempts: JSON.parse(row.attempts) as DeliveryAttempt[],
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    createdAt: row.created_at,
  };
}
