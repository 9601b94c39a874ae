/**
 * The `webhook.deliver` job: one attempt of one delivery. The body is the event as webhooks see it,
 * signed under the Standard Webhooks scheme with the event id as `webhook-id` (the same on every
 * attempt, so a receiver drops duplicates). A 2xx within 10 s is success; anything else schedules
 * the next retry of `WEBHOOK_RETRY_SCHEDULE` (with jitter, in the same transaction that records the
 * attempt) or, after the last, marks the delivery `failed`. A webhook whose every attempt has failed
 * for `WEBHOOK_DEACTIVATE_AFTER_DAYS` is deactivated, with the reason.
 *
 * At least once: a process killed mid-attempt leaves the job's lease to run out, and another
 * process runs the attempt again (nothing of the lost attempt was recorded).
 */

import { secretsKey } from '../../core/secrets.js';
import { inTransaction } from '../../core/service.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../db/schema.js';
import type { App } from '../../http/app.js';
import { enqueue, type JobContext, type JobHandler } from '../../jobs/index.js';
import { FetchAbortedError, FetchStatusError, guardedFetch } from '../../lib/fetch.js';
import { nowIso } from '../../lib/time.js';
import { presentEvent } from '../present.js';
import { DELIVER_JOB, type DeliverPayload } from '../record.js';
import { findEvent } from '../repo.js';
import { findDelivery, findWebhookById, olderFirstAttemptPending, updateDelivery, updateWebhook } from './repo.js';
import { openWebhookSecret, signedHeaders } from './sign.js';

/** The receiver's deadline (the "2xx within 10 s"). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A receiver's answer is read but not kept: a cap so a huge one cannot cost memory. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** How long a first attempt waits for older first attempts of the same webhook (then order gives way). */
const ORDER_WAIT_MS = 30_000;
const ORDER_RECHECK_MS = 200;

export interface DeliveryAttempt {
  at: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

/** `delayMs` ±20 %, so receivers coming back from an outage are not hit by every retry at once. */
export function withJitter(delayMs: number, random = Math.random()): number {
  return Math.round(delayMs * (0.8 + 0.4 * random));
}

async function attempt(
  app: App,
  webhook: WebhookRow,
  messageId: string,
  body: string,
  job: JobContext,
): Promise<DeliveryAttempt> {
  const secret = openWebhookSecret(
    await secretsKey(app.db, app.config.secretsKey, job.log),
    webhook.id,
    webhook.sealed_secret,
  );
  const at = nowIso();
  const started = performance.now();
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const response = await guardedFetch(webhook.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...signedHeaders(secret, messageId, body) },
      allowPrivate: app.config.fetchAllowPrivate,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
      followRedirects: false,
      signal: job.signal,
    });
    responseStatus = response.status;
  } catch (cause) {
    // Shutting down: not the receiver's fault; the job goes back to the queue and is run again.
    if (cause instanceof FetchAbortedError) throw cause;
    if (cause instanceof FetchStatusError) responseStatus = cause.status;
    error = cause instanceof Error ? cause.message : String(cause);
  }
  return { at, durationMs: Math.round(performance.now() - started), responseStatus, error };
}

/** Records `result` and decides what follows, in one transaction (the next job with it). */
async function settleAttempt(app: App, delivery: WebhookDeliveryRow, webhook: WebhookRow, result: DeliveryAttempt) {
  const attempts = [...(JSON.parse(delivery.attempts) as DeliveryAttempt[]), result];
  const succeeded = result.error === null;
  await inTransaction(
    app.db,
    async (trx) => {
      if (succeeded) {
        await updateDelivery(trx, delivery.id, {
          status: 'succeeded',
          attempts: JSON.stringify(attempts),
          next_attempt_at: null,
        });
        if (webhook.failing_since) await updateWebhook(trx, webhook.id, { failing_since: null });
        return;
      }
      const delay = app.config.webhookRetrySchedule[attempts.length - delivery.retries_from - 1];
      if (delay === undefined) {
        await updateDelivery(trx, delivery.id, {
          status: 'failed',
          attempts: JSON.stringify(attempts),
          next_attempt_at: null,
        });
      } else {
        const next = new Date(Date.now() + withJitter(delay));
        await updateDelivery(trx, delivery.id, {
          attempts: JSON.stringify(attempts),
          next_attempt_at: next.toISOString(),
        });
        await enqueue(
          trx,
          DELIVER_JOB,
          { deliveryId: delivery.id, attempt: attempts.length } satisfies DeliverPayload,
          {
            runAt: next,
          },
        );
      }
      const failingSince = webhook.failing_since ?? result.at;
      const deactivate = Date.now() - Date.parse(failingSince) >= app.config.webhookDeactivateAfterMs;
      await updateWebhook(trx, webhook.id, {
        failing_since: failingSince,
        ...(deactivate
          ? {
              active: 0,
              deactivated_reason: `every delivery failed since ${failingSince} (last: ${result.error})`,
              updated_at: nowIso(),
            }
          : {}),
      });
    },
    { withoutEvent: 'settleAttempt' },
  );
}

export function deliveryHandler(app: App): JobHandler<DeliverPayload> {
  return async (payload, job) => {
    const delivery = await findDelivery(app.db, payload.deliveryId);
    if (delivery?.status !== 'pending') return;
    const attemptsSoFar = (JSON.parse(delivery.attempts) as unknown[]).length;
    // A job scheduled for an attempt that has happened since (a redelivery overtook it) has nothing to do.
    if ((payload.attempt ?? 0) !== attemptsSoFar) return;
    const webhook = await findWebhookById(app.db, delivery.webhook_id);
    if (!webhook) return;
    if (!webhook.active) {
      await updateDelivery(app.db, delivery.id, { status: 'failed', next_attempt_at: null });
      return;
    }
    if (
      attemptsSoFar === 0 &&
      Date.now() - Date.parse(delivery.created_at) < ORDER_WAIT_MS &&
      (await olderFirstAttemptPending(app.db, delivery))
    ) {
      await enqueue(app.db, DELIVER_JOB, { ...payload }, { runAt: new Date(Date.now() + ORDER_RECHECK_MS) });
      return;
    }
    const event = await findEvent(app.db, delivery.event_id);
    if (!event) return;
    const body = JSON.stringify(presentEvent(event));
    const result = await attempt(app, webhook, event.id, body, job);
    await settleAttempt(app, delivery, webhook, result);
  };
}
