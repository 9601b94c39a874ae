/** The audit log, in the official document's shapes (AuditEvent, AuditEventDetails, AuditEventAction). */
import { Type } from 'typebox';
import { Params, StringEnum, Timestamp } from '../../lib/schemas.js';

export const AUDIT_SOURCES = ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] as const;
export const AUDIT_ACTOR_TYPES = ['user', 'integration', 'installation', 'system', 'support'] as const;

const auditEventProperties = {
  object: Type.Literal('audit-event'),
  id: Type.String({ format: 'uuid' }),
  occurredAt: Timestamp,
  action: Type.String({ description: 'Stable action name describing the recorded change.' }),
  actor: Type.Object({
    type: StringEnum(AUDIT_ACTOR_TYPES),
    id: Type.String(),
    label: Type.Optional(Type.String()),
  }),
  source: StringEnum(AUDIT_SOURCES),
  target: Type.Object({ type: Type.String(), id: Type.String(), label: Type.Optional(Type.String()) }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
};

export const AuditEvent = Type.Object(auditEventProperties, { $id: 'AuditEvent' });

export const AuditEventDetails = Type.Object(
  {
    ...auditEventProperties,
    schemaVersion: Type.Integer({ minimum: 1 }),
    payload: Type.Object({}, { additionalProperties: true }),
  },
  { $id: 'AuditEventDetails' },
);

export const AuditEventAction = Type.Object(
  { object: Type.Literal('audit-event-action'), id: Type.String(), label: Type.String() },
  { $id: 'AuditEventAction' },
);

export const AuditParams = Type.Object({ organizationId: Params.organizationId });
export const AuditEventParams = Type.Object({
  organizationId: Params.organizationId,
  auditEventId: Type.String({ minLength: 1, description: 'Unique identifier of the audit event.' }),
});

export const AUDIT_DEFAULT_LIMIT = 20;

export const ListAuditEventsQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'Identifier of the page results to fetch.' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: AUDIT_DEFAULT_LIMIT, description: 'Up to 100.' }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or before this time.' })),
  action: Type.Optional(Type.String({ description: 'An exact action name.' })),
  actor: Type.Optional(Type.String({ description: 'An exact actor identifier.' })),
  target: Type.Optional(Type.String({ description: 'An exact target identifier.' })),
});

export const AuditEventList = Type.Object({
  items: Type.Array(AuditEvent),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
});
