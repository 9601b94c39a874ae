/** The events table: written by `recordEvent`, read by the audit log and the delivery jobs. */
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../core/service.js';
import type { Db } from '../db/database.js';
import { forUpdateSkipLocked, inSmallSubquery, toCount } from '../db/dialect.js';
import { prepare } from '../db/prepared.js';
import type { Database, EventRow, EventsTable } from '../db/schema.js';
import { uuidV7Bound } from '../lib/ids.js';
import { type Page, paginate } from '../lib/paging.js';

/** An event row as the arguments of a precompiled query (a type alias, not an interface: see prepare). */
type EventArgs = { [K in keyof EventsTable]: EventsTable[K] };

/**
 * The event's insert, compiled once (db/prepared.ts): it runs for every change the API makes, and
 * building and compiling its 13 values and the RETURNING subquery with Kysely on each call cost
 * more CPU than running it (in a profile of the create-collection path on SQLite, `insertEvent`
 * took ~245 µs per event, statement included; precompiled, ~115).
 */
const insertEventQuery = prepare((db, p: EventArgs) =>
  db
    .insertInto('events')
    .values({
      id: p.id,
      organization_id: p.organization_id,
      type: p.type,
      actor_type: p.actor_type,
      actor_id: p.actor_id,
      actor_label: p.actor_label,
      token_id: p.token_id,
      source: p.source,
      target_object: p.target_object,
      target_id: p.target_id,
      target_label: p.target_label,
      data: p.data,
      created_at: p.created_at,
    })
    .returning((eb) =>
      eb
        .selectFrom('webhooks')
        .select(eb.fn.countAll().as('n'))
        .where('organization_id', '=', p.organization_id)
        .where('active', '=', 1)
        .as('active_webhooks'),
    ),
);

/**
 * Inserts `row` and answers how many active webhooks its organization has, in one statement (the
 * count is a subquery of RETURNING, which both SQLite and PostgreSQL allow): most organizations
 * have none, and then recording an event costs one statement — one round trip on PostgreSQL —
 * instead of two. The count is read by the insert, in the transaction of the change, so a webhook
 * another process created is seen as soon as it committed.
 */
export async function insertEvent(db: DbOrTrx, row: EventsTable): Promise<{ activeWebhooks: number }> {
  const inserted = await insertEventQuery.first(db, row);
  if (!inserted) throw new Error('insertEvent: the insert returned no row');
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

/** Whether an event's id is a version 7 UUID (its 15th character is the version). */
const timeOrdered = sql<SqlBool>`substr(id, 15, 1) = '7'`;
/**
 * The other events (recorded before ids were time-ordered): the condition of the partial index
 * `events_created_legacy` (migration 0016), written the same way so that the planner uses it.
 */
const notTimeOrdered = sql<SqlBool>`substr(id, 15, 1) <> '7'`;

/**
 * Deletes at most `limit` events recorded before `before` (their deliveries go with them), oldest
 * first, and returns how many: at most two statements, each committing on its own (the purge calls
 * it batch after batch: ./retention.ts). Event ids are version 7 UUIDs, which begin with the
 * millisecond they were made, so the expired ones are a range of the primary key and no index on
 * `created_at` has to be kept up on every insert (migration 0016). The id's millisecond is the
 * clock's when the event was recorded; `created_at`, stamped just after, is the same or (when stamps
 * run ahead of the clock in a burst, lib/time.ts) a few milliseconds later. (The range alone, not
 * also `created_at < before`: with both, SQLite's planner may scan `events_org_created` instead.)
 * Events with older, random ids are found by `created_at`, through the partial index that holds
 * only them, with what the batch has left. On PostgreSQL, rows another process is deleting at the
 * same moment are skipped rather than waited for (`inSmallSubquery`: db/dialect.ts).
 */
export async function deleteEventsBefore(db: Db, before: string, limit: number): Promise<number> {
  const deleteListed = async (ids: SelectQueryBuilder<Database, 'events', { id: string }>) => {
    const listed = forUpdateSkipLocked(db, ids);
    const result = await db
      .deleteFrom('events')
      .where((eb) => inSmallSubquery(db, eb.ref('id'), listed))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };
  const recent = await deleteListed(
    db
      .selectFrom('events')
      .select('id')
      .where('id', '<', uuidV7Bound(Date.parse(before)))
      .where(timeOrdered)
      .orderBy('id')
      .limit(limit),
  );
  if (recent === limit) return recent;
  const legacy = await deleteListed(
    db
      .selectFrom('events')
      .select('id')
      .where(notTimeOrdered)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit - recent),
  );
  return recent + legacy;
}
