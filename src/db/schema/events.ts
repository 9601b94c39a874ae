/** Table types of events, webhooks and their deliveries (src/events, src/webhooks). Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';
import type { Bool } from './types.js';

/** One change in an organization, written in the transaction that made it (src/events). */
export interface EventsTable {
  /** A UUID (the audit log's ids are UUIDs in the official document). */
  id: string;
  organization_id: string;
  /** e.g. `space.updated` (src/events/types.ts lists them). */
  type: string;
  /** `user` or `system`. */
  actor_type: string;
  actor_id: string | null;
  /** The actor's display name when the event was recorded. */
  actor_label: string | null;
  token_id: string | null;
  /** `api`, `cli` or `system`. */
  source: string;
  target_object: string;
  target_id: string;
  target_label: string | null;
  /** JSON `{object, previous?}`: the resource as the API presents it, and the changed fields before. */
  data: string;
  created_at: string;
}

/** An organization's subscription to its events (src/webhooks). */
export interface WebhooksTable {
  id: string;
  organization_id: string;
  url: string;
  /** JSON string[] of event types, `prefix.*` or `*`. */
  events: string;
  description: string | null;
  active: Bool;
  /** The signing secret (`whsec_…`), sealed with core/secrets.ts (aad: the webhook id). */
  sealed_secret: string;
  /** Since when every attempt has failed (null after a success); past the limit the webhook is deactivated. */
  failing_since: string | null;
  deactivated_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One event sent to one webhook: its attempts and what comes next. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** `pending`, `succeeded` or `failed`. */
  status: string;
  /** JSON `[{at, durationMs, responseStatus, error}]`, oldest first. */
  attempts: string;
  /** How many attempts preceded the last redelivery: the retry schedule counts from there. */
  retries_from: number;
  next_attempt_at: string | null;
  created_at: string;
}

export type EventRow = Selectable<EventsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
