/**
 * Every change to webhooks: create, update, delete, rotate the secret, ping, redeliver. Only the
 * organization's admins manage its webhooks (404 for non-members, 403 for other members); each
 * change is recorded as an event in its own transaction, like every other change.
 */

import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { DELIVER_JOB, type DeliverPayload, recordEvent } from '../../events/record.js';
import { isSubscribable } from '../../events/types.js';
import * as repo from '../../events/webhooks/repo.js';
import { newWebhookSecret, sealWebhookSecret } from '../../events/webhooks/sign.js';
import { enqueue } from '../../jobs/index.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { assertFetchableUrl, FetchError } from '../../lib/fetch.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { authorizeWebhooks } from '../../permissions/organization.js';
import { presentDelivery, presentWebhook } from './present.js';

/** What the service needs from the configuration: the key secrets are sealed with, and the fetch guard's setting. */
export interface WebhookSettings {
  secretsKey: Buffer;
  fetchAllowPrivate: boolean;
}

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  active?: boolean;
}

/** The webhook as an admin of its organization sees it; 404 when it is not there. */
export async function loadWebhook(
  db: Db,
  organizationId: string,
  userId: string,
  webhookId: string,
  action: string,
): Promise<WebhookRow> {
  await authorizeWebhooks(db, organizationId, userId, action);
  const webhook = await repo.findWebhook(db, organizationId, webhookId);
  if (!webhook) throw notFound(`webhook ${webhookId} not found`);
  return webhook;
}

async function checkInput(input: WebhookInput, settings: WebhookSettings): Promise<void> {
  const unknown = input.events?.find((e) => !isSubscribable(e));
  if (unknown !== undefined) throw badRequest(`body/events: "${unknown}" is not an event type, a family (x.*) or *`);
  if (input.url !== undefined) {
    try {
      const url = await assertFetchableUrl(input.url, settings.fetchAllowPrivate);
      // A webhook's URL is shown back in every answer, event and audit entry: it must hold no
      // password (deliveries are authenticated by their signature, not by the URL).
      if (url.username !== '' || url.password !== '') {
        throw badRequest('body/url must not contain user information (user:password@); webhooks are signed instead');
      }
    } catch (error) {
      if (error instanceof FetchError) throw badRequest(`body/url: ${error.message}`);
      throw error;
    }
  }
}

function eventOf(ctx: ServiceContext, webhook: WebhookRow) {
  return {
    organizationId: webhook.organization_id,
    target: { object: 'webhook', id: webhook.id, label: webhook.url },
    data: { object: presentWebhook(webhook, ctx.urls) },
  };
}

export async function createWebhook(
  ctx: ServiceContext,
  organizationId: string,
  input: WebhookInput & { url: string; events: string[] },
  settings: WebhookSettings,
): Promise<{ webhook: WebhookRow; secret: string }> {
  await authorizeWebhooks(ctx.db, organizationId, actingUser(ctx).id, 'manage webhooks');
  await checkInput(input, settings);
  const id = newId();
  const secret = newWebhookSecret();
  const now = nowIso();
  return inTransaction(ctx.db, async (trx) => {
    const webhook = await repo.insertWebhook(trx, {
      id,
      organization_id: organizationId,
      url: input.url,
      events: JSON.stringify([...new Set(input.events)]),
      description: input.description ?? null,
      active: input.active === false ? 0 : 1,
      sealed_secret: sealWebhookSecret(settings.secretsKey, id, secret),
      failing_since: null,
      deactivated_reason: null,
      created_at: now,
      updated_at: now,
    });
    await recordEvent(trx, ctx, { type: 'webhook.created', ...eventOf(ctx, webhook) });
    return { webhook, secret };
  });
}

export async function updateWebhook(
  ctx: ServiceContext,
  organizationId: string,
  webhookId: string,
  input: WebhookInput,
  settings: WebhookSettings,
): Promise<WebhookRow> {
  const before = await loadWebhook(ctx.db, organizationId, actingUser(ctx).id, webhookId, 'manage webhooks');
  await checkInput(input, settings);
  const changes: Partial<WebhookRow> = { updated_at: nowIso() };
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = JSON.stringify([...new Set(input.events)]);
  if (input.description !== undefined) changes.description = input.description;
  if (input.active !== undefined) {
    changes.active = input.active ? 1 : 0;
    // Turned back on by hand: it starts again with a clean record.
    if (input.active) Object.assign(changes, { deactivated_reason: null, failing_since: null });
  }
  return inTransaction(ctx.db, async (trx) => {
    await repo.updateWebhook(trx, webhookId, changes);
    const webhook = { ...before, ...changes };
    const changed = previousValues(presentWebhook(before, ctx.urls), presentWebhook(webhook, ctx.urls));
    const event = eventOf(ctx, webhook);
    await recordEvent(trx, ctx, { type: 'webhook.updated', ...event, data: { ...event.data, previous: changed } });
    return webhook;
  });
}

export async function deleteWebhook(ctx: ServiceContext, organizationId: string, webhookId: string): Promise<void> {
  const webhook = await loadWebhook(ctx.db, organizationId, actingUser(ctx).id, webhookId, 'manage webhooks');
  await inTransaction(ctx.db, async (trx) => {
    await repo.deleteWebhook(trx, webhookId);
    await recordEvent(trx, ctx, { type: 'webhook.deleted', ...eventOf(ctx, webhook) });
  });
}

export async function rotateWebhookSecret(
  ctx: ServiceContext,
  organizationId: string,
  webhookId: string,
  settings: WebhookSettings,
): Promise<{ webhook: WebhookRow; secret: string }> {
  const before = await loadWebhook(ctx.db, organizationId, actingUser(ctx).id, webhookId, 'manage webhooks');
  const secret = newWebhookSecret();
  const changes = { sealed_secret: sealWebhookSecret(settings.secretsKey, webhookId, secret), updated_at: nowIso() };
  return inTransaction(ctx.db, async (trx) => {
    await repo.updateWebhook(trx, webhookId, changes);
    const webhook = { ...before, ...changes };
    await recordEvent(trx, ctx, { type: 'webhook.secret_rotated', ...eventOf(ctx, webhook) });
    return { webhook, secret };
  });
}

/** Sends a `webhook.ping` event to this webhook only (whatever it subscribes to, active or not). */
export async function pingWebhook(
  ctx: ServiceContext,
  organizationId: string,
  webhookId: string,
): Promise<WebhookDeliveryRow> {
  const webhook = await loadWebhook(ctx.db, organizationId, actingUser(ctx).id, webhookId, 'manage webhooks');
  return inTransaction(ctx.db, async (trx) => {
    const event = await recordEvent(
      trx,
      ctx,
      { type: 'webhook.ping', ...eventOf(ctx, webhook) },
      { onlyWebhookId: webhook.id },
    );
    const [delivery] = (await repo.listDeliveriesOfEvent(trx, event.id)) as [WebhookDeliveryRow];
    return delivery;
  });
}

/** Sends a delivery again now, whatever became of it; the retry schedule starts over from here. */
export async function redeliver(
  ctx: ServiceContext,
  organizationId: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow> {
  const webhook = await loadWebhook(ctx.db, organizationId, actingUser(ctx).id, webhookId, 'manage webhooks');
  return inTransaction(ctx.db, async (trx) => {
    const delivery = await repo.findWebhookDelivery(trx, webhookId, deliveryId);
    if (!delivery) throw notFound(`delivery ${deliveryId} not found`);
    const attempts = (JSON.parse(delivery.attempts) as unknown[]).length;
    const changes = { status: 'pending', retries_from: attempts, next_attempt_at: nowIso() };
    await repo.updateDelivery(trx, deliveryId, changes);
    await enqueue(trx, DELIVER_JOB, { deliveryId, attempt: attempts } satisfies DeliverPayload);
    const redelivered = { ...delivery, ...changes };
    await recordEvent(trx, ctx, {
      type: 'webhook.redelivered',
      organizationId: webhook.organization_id,
      target: { object: 'webhook-delivery', id: delivery.id, label: webhook.url },
      data: { object: presentDelivery(redelivered) },
    });
    return redelivered;
  });
}
