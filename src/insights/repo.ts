/**
 * Site insight events: stored one row each, and aggregated by the plan the service builds from an
 * `aggregateSiteEvents` query. Expressions come from `columns.ts` (constants); every value is a
 * bound parameter.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../core/service.js';
import type { Db } from '../db/database.js';
import { forUpdateSkipLocked, inSmallSubquery } from '../db/dialect.js';
import type { SiteInsightEventsTable } from '../db/schema.js';
import type { Operator } from './schemas.js';

export async function insertInsightEvents(db: DbOrTrx, rows: SiteInsightEventsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('site_insight_events').values(rows).execute();
}

/** A WHERE or HAVING condition: `expression` (one, or `space_id, page_id` for pages) against values. */
export interface Condition {
  sql: string;
  operator: Operator;
  values: unknown[];
  page?: boolean;
}

/** What to select: an alias per expression (dimensions are grouped by, metrics aggregate). */
export interface Selected {
  alias: string;
  sql: string;
  grouped: boolean;
}

export interface AggregatePlan {
  siteId: string;
  from: string;
  to: string;
  selected: Selected[];
  where: Condition[];
  having: Condition[];
  order: { sql: string; direction: 'asc' | 'desc' }[];
  limit: number;
}

const COMPARE: Record<Exclude<Operator, 'in' | 'notIn'>, string> = {
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  lessThan: '<',
  lessThanOrEqual: '<=',
};

function pageMatch(value: unknown): RawBuilder<SqlBool> {
  if (value === null) return sql<SqlBool>`page_id is null`;
  const { page, space } = value as { page: string | null; space: string };
  return page === null
    ? sql<SqlBool>`(space_id = ${space} and page_id is null)`
    : sql<SqlBool>`(space_id = ${space} and page_id = ${page})`;
}

/** One condition as SQL. `notIn` keeps rows whose value is null unless null is among the values. */
function conditionSql(c: Condition): RawBuilder<SqlBool> {
  const expr = sql.raw(c.sql);
  if (c.operator !== 'in' && c.operator !== 'notIn') {
    return sql<SqlBool>`${expr} ${sql.raw(COMPARE[c.operator])} ${c.values[0]}`;
  }
  const negate = c.operator === 'notIn';
  let match: RawBuilder<SqlBool>;
  if (c.page) {
    match = c.values.length > 0 ? sql<SqlBool>`(${sql.join(c.values.map(pageMatch), sql` or `)})` : sql`1 = 0`;
  } else {
    const present = c.values.filter((v) => v !== null);
    const parts: RawBuilder<SqlBool>[] = [];
    if (present.length > 0) parts.push(sql<SqlBool>`${expr} in (${sql.join(present)})`);
    if (present.length < c.values.length) parts.push(sql<SqlBool>`${expr} is null`);
    match = parts.length > 0 ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : sql`1 = 0`;
    if (negate && present.length === c.values.length) {
      return sql<SqlBool>`(not ${match} or ${expr} is null)`;
    }
  }
  return negate ? sql<SqlBool>`not ${match}` : match;
}

/** Runs `plan`: one row per group, each selected alias a property. */
export async function aggregateInsightEvents(db: Db, plan: AggregatePlan): Promise<Record<string, unknown>[]> {
  let query = db
    .selectFrom('site_insight_events')
    .where('site_id', '=', plan.siteId)
    .where('occurred_at', '>=', plan.from)
    .where('occurred_at', '<=', plan.to)
    .select(plan.selected.map((s) => sql.raw(s.sql).as(s.alias)));
  for (const c of plan.where) query = query.where(conditionSql(c));
  const grouped = plan.selected.filter((s) => s.grouped);
  if (grouped.length > 0) query = query.groupBy(grouped.map((s) => sql.raw(s.sql)));
  for (const c of plan.having) query = query.having(conditionSql(c));
  for (const o of plan.order) {
    // Nulls last on both databases (SQLite puts them first ascending, PostgreSQL last).
    query = query
      .orderBy(sql`case when ${sql.raw(o.sql)} is null then 1 else 0 end`)
      .orderBy(sql.raw(o.sql), o.direction);
  }
  return (await query.limit(plan.limit).execute()) as Record<string, unknown>[];
}

/**
 * Deletes at most `limit` events (of every site) that occurred before `before`, oldest first, and
 * returns how many. One statement, so it commits on its own: a caller deleting many rows calls it
 * again until it deletes fewer than `limit`, and no transaction (on SQLite: the write lock) lasts
 * longer than one batch. The inner select reads the `occurred_at` index (0017) and stops after
 * `limit` rows; the delete finds them by primary key (neither database has a portable `DELETE …
 * LIMIT`). On PostgreSQL the rows another process is deleting at the same moment are skipped
 * rather than waited for: every worker process starts its purge when it becomes ready.
 */
export async function deleteInsightEventsBefore(db: Db, before: string, limit: number): Promise<number> {
  const expired = forUpdateSkipLocked(
    db,
    db
      .selectFrom('site_insight_events')
      .select('id')
      .where('occurred_at', '<', before)
      .orderBy('occurred_at')
      .limit(limit),
  );
  const result = await db
    .deleteFrom('site_insight_events')
    .where((eb) => inSmallSubquery(db, eb.ref('id'), expired))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
