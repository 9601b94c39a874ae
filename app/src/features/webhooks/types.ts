/** Webhooks (a Bindery extension of the API) as the app reads them. */
export interface Webhook {
  object: 'webhook';
  id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  deactivatedReason: string | null;
  createdAt: string;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  object: 'webhook-delivery';
  id: string;
  event: { id: string; type: string };
  status: DeliveryStatus;
  attempts: { at: string; durationMs: number; responseStatus: number | null; error: string | null }[];
  nextAttemptAt: string | null;
  createdAt: string;
}
