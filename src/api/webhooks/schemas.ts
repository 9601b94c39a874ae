/** Webhooks, a Bindery extension (not in the official document): TypeBox schemas of its routes. */
import { Type } from 'typebox';
import { PageQuery } from '../../lib/paging.js';
import { Nullable, Params, StringEnum, Timestamp, Url } from '../../lib/schemas.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const EventPattern = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'An event type (`space.updated`), a family (`space.*`) or `*` for every event',
});
const Events = Type.Array(EventPattern, { minItems: 1, maxItems: 100 });
const Description = Type.String({ maxLength: 1000 });

export const Webhook = Type.Object(
  {
    object: Type.Literal('webhook'),
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    active: Type.Boolean(),
    deactivatedReason: Nullable(
      Type.String({ description: 'Why the server deactivated the webhook (its deliveries kept failing)' }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: Type.Object({ location: Type.String() }),
  },
  { $id: 'Webhook', description: 'A subscription of an organization to its events (Bindery extension)' },
);

export const WebhookWithSecret = Type.Intersect(
  [
    Webhook,
    Type.Object({
      secret: Type.String({
        description: 'Signing secret (`whsec_…`, Standard Webhooks): shown only when created or rotated',
      }),
    }),
  ],
  { $id: 'WebhookWithSecret' },
);

export const WebhookDelivery = Type.Object(
  {
    object: Type.Literal('webhook-delivery'),
    id: Type.String(),
    event: Type.Object({ id: Type.String(), type: Type.String() }),
    status: StringEnum(DELIVERY_STATUSES),
    attempts: Type.Array(
      Type.Object({
        at: Timestamp,
        durationMs: Type.Integer(),
        responseStatus: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
      }),
    ),
    nextAttemptAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookParams = Type.Object({
  organizationId: Params.organizationId,
  webhookId: Type.String({ minLength: 1 }),
});
export const DeliveryParams = Type.Object({
  organizationId: Params.organizationId,
  webhookId: Type.String({ minLength: 1 }),
  deliveryId: Type.String({ minLength: 1 }),
});

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Nullable(Description)),
    active: Type.Optional(Type.Boolean({ description: 'true also clears `deactivatedReason`' })),
  },
  { additionalProperties: false },
);

export const ListDeliveriesQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
});
