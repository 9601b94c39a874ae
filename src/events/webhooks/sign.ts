/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * random bytes, and each request carries `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), made by the specification's own library so
 * receivers verify with theirs.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { decryptSecret, encryptSecret } from '../../core/secrets.js';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The secret sealed at rest, bound to its webhook (a sealed value copied to another row does not open). */
export function sealWebhookSecret(key: Buffer, webhookId: string, secret: string): string {
  return encryptSecret(key, secret, `webhook:${webhookId}`);
}

export function openWebhookSecret(key: Buffer, webhookId: string, sealed: string): string {
  return decryptSecret(key, sealed, `webhook:${webhookId}`);
}

/** The headers of one delivery attempt of `body` as message `messageId`, signed now. */
export function signedHeaders(
  secret: string,
  messageId: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, now, body),
  };
}
