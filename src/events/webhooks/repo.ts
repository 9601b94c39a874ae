/** Webhooks and their deliveries: every query of both (the API area and the delivery jobs share them). */

import type { DbOrTrx } from '../../core/service.js';
import type { WebhookDeliveriesTable, WebhookDeliveryRow, WebhookRow, WebhooksTable } from '../../db/schema.js';
import { type Page, paginate } from '../../lib/paging.js';

export async function insertWebhook(db: DbOrTrx, row: WebhooksTable): Promise<WebhookRow> {
  await db.insertInto('webhooks').values(row).execute();
  return row;
}

export async function findWebhook(db: DbOrTrx, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function findWebhookById(db: DbOrTrx, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listWebhooks(
  db: DbOrTrx,
  organizationId: string,
  options: { page?: string; limit?: number },
): Promise<Page<WebhookRow>> {
  return paginate(
    db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId),
    [
      { column: 'webhooks.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'webhooks.id', direction: 'asc', value: (r) => r.id },
    ],
    options,
  );
}

/** The active webhooks of an organization, with what they subscribe to (one query per recorded event). */
export async function activeWebhooks(
  db: DbOrTrx,
  organizationId: string,
): Promise<Pick<WebhookRow, 'id' | 'events'>[]> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('organization_id', '=', organizationId)
    .where('active', '=', 1)
    .orderBy('created_at')
    .execute();
}

export async function updateWebhook(db: DbOrTrx, id: string, changes: Partial<WebhooksTable>): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhook(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function insertDelivery(db: DbOrTrx, row: WebhookDeliveriesTable): Promise<WebhookDeliveryRow> {
  await db.insertInto('webhook_deliveries').values(row).execute();
  return row;
}

export async function findDelivery(db: DbOrTrx, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findWebhookDelivery(
  db: DbOrTrx,
  webhookId: string,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

/** A webhook's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  db: DbOrTrx,
  webhookId: string,
  filters: { status?: string },
  options: { page?: string; limit?: number },
): Promise<Page<WebhookDeliveryRow>> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (filters.status) query = query.where('status', '=', filters.status);
  return paginate(
    query,
    [
      { column: 'webhook_deliveries.created_at', direction: 'desc', value: (r) => r.created_at },
      { column: 'webhook_deliveries.id', direction: 'desc', value: (r) => r.id },
    ],
    options,
  );
}

export async function updateDelivery(db: DbOrTrx, id: string, changes: Partial<WebhookDeliveriesTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
}

/**
 * Whether an older delivery of the same webhook is still waiting for its first attempt: the newer
 * one then waits, so a receiver gets a webhook's events in the order they happened (a delivery
 * waiting for a retry no longer holds the others back).
 */
export async function olderFirstAttemptPending(db: DbOrTrx, delivery: WebhookDeliveryRow): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', delivery.webhook_id)
    .where('status', '=', 'pending')
    .where('attempts', '=', '[]')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', delivery.created_at),
        eb.and([eb('created_at', '=', delivery.created_at), eb('id', '<', delivery.id)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listDeliveriesOfEvent(db: DbOrTrx, eventId: string): Promise<WebhookDeliveryRow[]> {
  return db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
}
