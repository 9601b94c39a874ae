/**
 * The transactional outbox. A service function calls `recordEvent` with the transaction that makes
 * its change: the event row and one delivery per subscribed webhook (each with its job) are written
 * in that transaction, so they exist if and only if the change committed. Delivery happens after,
 * in the `webhook.deliver` jobs (src/events/webhooks/deliver.ts).
 */

import { guardOf } from '../core/event-guard.js';
import type { DbOrTrx, ServiceContext } from '../core/service.js';
import type { EventRow } from '../db/schema.js';
import { declareOrganizationWrite } from '../db/write-scope.js';
import { enqueue } from '../jobs/index.js';
import { newId, uuidV7 } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import { insertEvent } from './repo.js';
import { type EventInput, subscribes } from './types.js';
import { activeWebhooks, insertDelivery } from './webhooks/repo.js';

/** The job kind that sends one delivery. */
export const DELIVER_JOB = 'webhook.deliver';

export interface DeliverPayload {
  deliveryId: string;
  /** How many attempts the delivery had when this job was scheduled (a stale job then does nothing). */
  attempt?: number;
}

/**
 * Schedules the delivery of `event` to one webhook (in `trx`): a pending delivery row and the job
 * that sends it.
 */
export async function scheduleDelivery(
  trx: DbOrTrx,
  event: Pick<EventRow, 'id' | 'type'>,
  webhookId: string,
): Promise<string> {
  const id = newId();
  await insertDelivery(trx, {
    id,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    attempts: '[]',
    retries_from: 0,
    next_attempt_at: nowIso(),
    created_at: nowIso(),
  });
  await enqueue(trx, DELIVER_JOB, { deliveryId: id } satisfies DeliverPayload);
  return id;
}

/**
 * Records `input` as done by `ctx.actor`, in `trx` (the transaction of the change), and schedules
 * its delivery to every active webhook of the organization that subscribes to its type — or only
 * to `options.onlyWebhookId` (a ping).
 */
export async function recordEvent(
  trx: DbOrTrx,
  ctx: Pick<ServiceContext, 'actor'>,
  input: EventInput,
  options: { onlyWebhookId?: string } = {},
): Promise<EventRow> {
  const { actor } = ctx;
  const row: EventRow = {
    id: uuidV7(), // time-ordered: the events table only grows at its end
    organization_id: input.organizationId,
    type: input.type,
    actor_type: actor.user ? 'user' : 'system',
    actor_id: actor.user?.id ?? null,
    actor_label: actor.user?.display_name ?? null,
    token_id: actor.tokenId,
    source: actor.source,
    target_object: input.target.object,
    target_id: input.target.id,
    target_label: input.target.label ?? null,
    data: JSON.stringify(input.data),
    created_at: nowIso(),
  };
  // The change is the organization's: its cached answers go when it commits (src/db/write-scope.ts).
  declareOrganizationWrite(input.organizationId);
  const { activeWebhooks: subscribers } = await insertEvent(trx, row);
  // The transaction's guard (src/core/event-guard.ts) lets it commit: its change is recorded.
  guardOf(trx)?.eventRecorded();
  if (options.onlyWebhookId) {
    await scheduleDelivery(trx, row, options.onlyWebhookId);
    return row;
  }
  if (subscribers === 0) return row;
  for (const webhook of await activeWebhooks(trx, input.organizationId)) {
    if (subscribes(JSON.parse(webhook.events) as string[], row.type)) await scheduleDelivery(trx, row, webhook.id);
  }
  return row;
}
