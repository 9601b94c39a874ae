/** An event as webhooks receive it (the body of every delivery). Pure. */
import type { EventRow } from '../db/schema.js';

export interface EventPayload {
  object: 'event';
  id: string;
  type: string;
  createdAt: string;
  organization: string;
  actor: { type: 'user' | 'system'; id: string | null };
  source: string;
  target: { object: string; id: string };
  data: { object: unknown; previous?: Record<string, unknown> };
}

export function presentEvent(row: EventRow): EventPayload {
  return {
    object: 'event',
    id: row.id,
    type: row.type,
    createdAt: row.created_at,
    organization: row.organization_id,
    actor: { type: row.actor_type === 'user' ? 'user' : 'system', id: row.actor_id },
    source: row.source,
    target: { object: row.target_object, id: row.target_id },
    data: JSON.parse(row.data),
  };
}
