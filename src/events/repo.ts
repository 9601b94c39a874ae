/** The events table: written by `recordEvent`, read by the audit log and the delivery jobs. */
import { type Page, paginate } from '../core/paging.js';
import type { DbOrTrx } from '../core/service.js';
import { toCount } from '../db/dialect.js';
import type { EventRow, EventsTable } from '../db/schema.js';

/**
 * Inserts `row` and answers how many active webhooks its organization has, in one statement (the
 * count is a subquery of RETURNING, which both SQLite and PostgreSQL allow): most organizations
 * have none, and then recording an event costs one statement — one round trip on PostgreSQL —
 * instead of two.
 */
export async function insertEvent(db: DbOrTrx, row: EventsTable): Promise<{ activeWebhooks: number }> {
  const inserted = await db
    .insertInto('events')
    .values(row)
    .returning((eb) =>
      eb
        .selectFrom('webhooks')
        .select(eb.fn.countAll().as('n'))
        .where('organization_id', '=', row.organization_id)
        .where('active', '=', 1)
        .as('active_webhooks'),
    )
    .executeTakeFirstOrThrow();
  return { activeWebhooks: toCount(inserted.active_webhooks as string | number | bigint | null) };
}

export async function findEvent(db: DbOrTrx, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrganizationEvent(
  db: DbOrTrx,
  organizationId: string,
  id: string,
): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export interface AuditFilters {
  from?: string;
  to?: string;
  action?: string;
  actor?: string;
  target?: string;
}

/** An organization's events, newest first, filtered as `listOrganizationAuditEvents` allows. */
export async function listOrganizationEvents(
  db: DbOrTrx,
  organizationId: string,
  filters: AuditFilters,
  options: { page?: string; limit?: number },
): Promise<Page<EventRow>> {
  let query = db.selectFrom('events').selectAll().where('organization_id', '=', organizationId);
  if (filters.from) query = query.where('created_at', '>=', filters.from);
  if (filters.to) query = query.where('created_at', '<=', filters.to);
  if (filters.action) query = query.where('type', '=', filters.action);
  if (filters.actor) query = query.where('actor_id', '=', filters.actor);
  if (filters.target) query = query.where('target_id', '=', filters.target);
  return paginate(
    query,
    [
      { column: 'events.created_at', direction: 'desc', value: (r) => r.created_at },
      { column: 'events.id', direction: 'desc', value: (r) => r.id },
    ],
    options,
  );
}

/** Deletes events recorded before `before` (their deliveries go with them). */
export async function deleteEventsBefore(db: DbOrTrx, before: string): Promise<number> {
  const result = await db.deleteFrom('events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
