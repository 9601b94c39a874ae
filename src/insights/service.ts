/**
 * Site insights: recording events (from `trackEventsInSiteById` and from a published site's feedback
 * form, through the same function) and answering `aggregateSiteEvents` queries over them.
 */
import type { Static } from 'typebox';
import { inTransaction, type ServiceContext } from '../core/service.js';
import type { Db } from '../db/database.js';
import type { SiteInsightEventsTable, SiteRow } from '../db/schema.js';
import { badRequest } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import { checkOperator, columnDef, filterValue } from './columns.js';
import {
  type AggregatePlan,
  aggregateInsightEvents,
  type Condition,
  insertInsightEvents,
  type Selected,
} from './repo.js';
import type { AggregateBody, InsightEventInput } from './schemas.js';
import { MAX_EVENTS_PER_REQUEST } from './schemas.js';

/** How far an event's own `timestamp` may be from now (the official text: within 5 minutes). */
const TIMESTAMP_SLACK_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** The stored time parts of an instant (UTC): the aggregations group by them without date functions. */
function timeParts(ms: number) {
  const date = new Date(ms);
  const dayOfWeek = ((date.getUTCDay() + 6) % 7) + 1;
  const monday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - (dayOfWeek - 1) * DAY_MS;
  return { week_start: new Date(monday).toISOString(), day_of_week: dayOfWeek, hour_of_day: date.getUTCHours() };
}

function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * Records `events` of `site` (already authorized by the caller: a token that may read the site, or
 * a visitor the published site let in). Each event's `timestamp` must be within 5 minutes of now.
 */
export async function recordSiteEvents(
  ctx: ServiceContext,
  site: SiteRow,
  events: InsightEventInput[],
  now = Date.now(),
): Promise<number> {
  if (events.length > MAX_EVENTS_PER_REQUEST) {
    throw badRequest(`body/events must have at most ${MAX_EVENTS_PER_REQUEST} events`);
  }
  const createdAt = nowIso();
  const rows: SiteInsightEventsTable[] = events.map((event, i) => {
    let at = now;
    if (event.timestamp !== undefined) {
      at = Date.parse(event.timestamp);
      if (Number.isNaN(at) || Math.abs(at - now) > TIMESTAMP_SLACK_MS) {
        throw badRequest(`body/events/${i}/timestamp must be within 5 minutes of the current time`);
      }
    }
    const { type, session, location, timestamp: _t, feedback, ...rest } = event;
    const data = {
      ...rest,
      session: { language: session.language ?? null, referrer: session.referrer ?? null },
    };
    return {
      id: newId(),
      site_id: site.id,
      type,
      occurred_at: new Date(at).toISOString(),
      ...timeParts(at),
      session_id: session.sessionId,
      visitor_id: session.visitorId ?? null,
      url: location.url,
      url_path: urlPath(location.url),
      display_context: location.displayContext ?? 'site',
      site_section_id: location.siteSection,
      site_space_id: location.siteSpace,
      site_share_key: location.siteShareKey,
      space_id: location.space,
      revision_id: location.revision,
      page_id: location.page,
      feedback_rating: feedback?.rating ?? null,
      feedback_comment: feedback?.comment ?? null,
      data: JSON.stringify(data),
      created_at: createdAt,
    };
  });
  await inTransaction(ctx.db, (trx) => insertInsightEvents(trx, rows), { withoutEvent: 'recordSiteEvents' });
  return rows.length;
}

type Query = Static<typeof AggregateBody>;
type QueryColumn = NonNullable<Query['select']>[number];

const PRESET_DAYS: Record<string, number> = {
  lastYear: 365,
  last3Months: 90,
  last30Days: 30,
  last7Days: 7,
  last24Hours: 1,
};

/** The time range of a query (presets end now). */
function rangeOf(range: Query['range'], now: number): { from: string; to: string } {
  if (typeof range === 'string') {
    return {
      from: new Date(now - (PRESET_DAYS[range] as number) * DAY_MS).toISOString(),
      to: new Date(now).toISOString(),
    };
  }
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (from > to) throw badRequest('body/range/from must not be after body/range/to');
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** One column of the answer: its request form and the aliases holding its values. */
export interface AnswerColumn {
  column: QueryColumn;
  aliases: string[];
}

const key = (c: QueryColumn) => `${c.column}|${c.interval ?? ''}`;

/**
 * Plans and runs an aggregation over `siteId`'s events. Dimensions of `select` and `groupBy` are
 * grouped; `select` defaults to the `groupBy` columns and `eventsCount`.
 */
export async function aggregateSiteEvents(
  db: Db,
  siteId: string,
  query: Query,
  now = Date.now(),
): Promise<{ columns: AnswerColumn[]; rows: Record<string, unknown>[] }> {
  const groupBy = query.groupBy ?? [];
  const select =
    query.select && query.select.length > 0 ? query.select : [...groupBy, { column: 'eventsCount' as const }];
  const selected: Selected[] = [];
  const aliasesOf = new Map<string, { aliases: string[]; sql: string[] }>();

  const add = (c: QueryColumn, where: string) => {
    if (aliasesOf.has(key(c))) return aliasesOf.get(key(c)) as { aliases: string[]; sql: string[] };
    const def = columnDef(c.column, where);
    if (c.interval !== undefined && c.column !== 'datetime')
      throw badRequest(`${where}/interval applies only to datetime`);
    if (c.precision !== undefined || c.claim !== undefined)
      throw badRequest(`${where}: column ${c.column} takes no precision or claim`);
    const n = aliasesOf.size;
    const parts: [string, string][] =
      def.type === 'metric'
        ? typeof def.sql === 'string'
          ? [[`c${n}`, def.sql]]
          : Object.entries(def.sql).map(([part, s]) => [`c${n}_${part}`, s])
        : c.column === 'page'
          ? [
              [`c${n}_space`, 'space_id'],
              [`c${n}_page`, 'page_id'],
            ]
          : [[`c${n}`, def.sql(c.interval)]];
    for (const [alias, s] of parts) selected.push({ alias, sql: s, grouped: def.type === 'dimension' });
    const entry = { aliases: parts.map((p) => p[0]), sql: parts.map((p) => p[1]) };
    aliasesOf.set(key(c), entry);
    return entry;
  };
  groupBy.forEach((c, i) => {
    if (columnDef(c.column, `body/groupBy/${i}`).type === 'metric') {
      throw badRequest(`body/groupBy/${i}: ${c.column} is a count, not a column to group by`);
    }
    add(c, `body/groupBy/${i}`);
  });
  const columns = select.map((c, i) => ({ column: c, aliases: add(c, `body/select/${i}`).aliases }));

  const where: Condition[] = [];
  const having: Condition[] = [];
  (query.where ?? []).forEach((f, i) => {
    const at = `body/where/${i}`;
    const def = columnDef(f.column, at);
    if (f.claim !== undefined) throw badRequest(`${at}: column ${f.column} takes no claim`);
    const operator = f.operator ?? 'in';
    checkOperator(def, f.column, operator, at);
    const values = f.values.map((v, j) => filterValue(def, v, `${at}/values/${j}`));
    if (operator !== 'in' && operator !== 'notIn' && values.length !== 1) {
      throw badRequest(`${at}/values must hold exactly one value for ${operator}`);
    }
    if (def.type === 'metric') having.push({ sql: def.sql as string, operator, values });
    else where.push({ sql: def.filterSql ?? def.sql(), operator, values, page: f.column === 'page' });
  });

  const order: AggregatePlan['order'] = [];
  if (query.order) {
    const entry = aliasesOf.get(key(query.order.by));
    if (!entry || !select.some((c) => key(c) === key(query.order?.by as QueryColumn))) {
      throw badRequest(`body/order/by: column ${query.order.by.column} must be one of the selected columns`);
    }
    for (const s of entry.sql) order.push({ sql: s, direction: query.order.direction });
  }
  // Then every grouped expression, so equal rows always come in the same order.
  for (const s of selected) if (s.grouped) order.push({ sql: s.sql, direction: 'asc' });

  const rows = await aggregateInsightEvents(db, {
    siteId,
    ...rangeOf(query.range, now),
    selected,
    where,
    having,
    order,
    limit: query.limit ?? 1000,
  });
  return { columns, rows };
}
