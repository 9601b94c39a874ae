/**
 * The columns `aggregateSiteEvents` computes from stored events, and how: a dimension is one stored
 * expression (grouped and filtered), a metric an aggregate (filtered with HAVING). The official
 * document lists more columns (visitor device, geography, UTM parameters…) that Bindery does not
 * record; asking for one is a 400 naming it, never a column of made-up values.
 */
import { badRequest } from '../lib/errors.js';
import { type ColumnName, DISPLAY_CONTEXTS, EVENT_TYPES, type Operator, RATINGS } from './schemas.js';

/** How a filter value of a column is checked. */
type ValueKind =
  | { kind: 'string'; nullable: boolean }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'timestamp' }
  | { kind: 'page' }
  | { kind: 'number' };

export interface Dimension {
  type: 'dimension';
  /** SQL over the `site_insight_events` columns (constants of this file, never input). */
  sql: (interval?: string) => string;
  /** What `datetime` compares in WHERE (the exact time, whatever the grouping interval). */
  filterSql?: string;
  value: ValueKind;
  /** Comparison operators are allowed (ordered values). */
  ordered: boolean;
}

export interface Metric {
  type: 'metric';
  /** One aggregate, or several named parts (`pageFeedbackRating`). */
  sql: string | Record<string, string>;
}

export type ColumnDef = Dimension | Metric;

const stored = (column: string, value: ValueKind, ordered = false): Dimension => ({
  type: 'dimension',
  sql: () => column,
  value,
  ordered,
});
const text = (column: string, nullable = false) => stored(column, { kind: 'string', nullable });

/** Grouping expressions of `datetime` per interval: prefixes of the fixed-width ISO timestamp. */
const DATETIME_BUCKETS: Record<string, string> = {
  hour: 'substr(occurred_at, 1, 13)',
  day: 'substr(occurred_at, 1, 10)',
  week: 'week_start',
  month: 'substr(occurred_at, 1, 7)',
};

const rated = (rating: string) =>
  `sum(case when type = 'page_post_feedback' and feedback_rating = '${rating}' then 1 else 0 end)`;

export const COLUMNS: Partial<Record<ColumnName, ColumnDef>> = {
  datetime: {
    type: 'dimension',
    sql: (interval = 'day') => DATETIME_BUCKETS[interval] as string,
    filterSql: 'occurred_at',
    value: { kind: 'timestamp' },
    ordered: true,
  },
  dayOfWeek: stored('day_of_week', { kind: 'int', min: 1, max: 7 }, true),
  hourOfDay: stored('hour_of_day', { kind: 'int', min: 0, max: 23 }, true),
  url: text('url'),
  urlPath: text('url_path'),
  eventType: stored('type', { kind: 'enum', values: EVENT_TYPES }),
  siteSection: text('site_section_id', true),
  siteSpace: text('site_space_id', true),
  siteShareKey: text('site_share_key', true),
  displayContext: stored('display_context', { kind: 'enum', values: DISPLAY_CONTEXTS }),
  page: { type: 'dimension', sql: () => 'space_id, page_id', value: { kind: 'page' }, ordered: false },
  eventPageFeedbackRating: stored('feedback_rating', { kind: 'enum', values: RATINGS }),
  eventPageFeedbackComment: text('feedback_comment'),
  eventsCount: { type: 'metric', sql: 'count(*)' },
  sessionsCount: { type: 'metric', sql: 'count(distinct session_id)' },
  visitorsCount: { type: 'metric', sql: 'count(distinct visitor_id)' },
  pageFeedbackRating: { type: 'metric', sql: { good: rated('good'), ok: rated('ok'), bad: rated('bad') } },
};

/** The definition of `column`, or a 400 naming it (and where it was asked) when Bindery cannot compute it. */
export function columnDef(column: ColumnName, where: string): ColumnDef {
  const def = COLUMNS[column];
  if (!def) throw badRequest(`${where}: column ${column} is not recorded by this server, so it cannot be computed`);
  return def;
}

/** Checks one filter value against its column's kind; returns it normalized for SQL. */
export function filterValue(def: ColumnDef, value: unknown, where: string): unknown {
  if (def.type === 'metric') {
    if (typeof value !== 'number' || typeof def.sql !== 'string') throw badRequest(`${where} must be a number`);
    return value;
  }
  const v = def.value;
  switch (v.kind) {
    case 'string':
      if (value === null && v.nullable) return null;
      if (typeof value !== 'string') throw badRequest(`${where} must be a string${v.nullable ? ' or null' : ''}`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !v.values.includes(value)) {
        throw badRequest(`${where} must be one of ${v.values.join(', ')}`);
      }
      return value;
    case 'int':
      if (!Number.isInteger(value) || (value as number) < v.min || (value as number) > v.max) {
        throw badRequest(`${where} must be an integer from ${v.min} to ${v.max}`);
      }
      return value;
    case 'timestamp': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw badRequest(`${where} must be a date-time`);
      return new Date(ms).toISOString();
    }
    case 'page': {
      if (value === null) return null;
      const p = value as { page?: unknown; space?: unknown };
      if (
        typeof value !== 'object' ||
        typeof p.space !== 'string' ||
        !(p.page === null || typeof p.page === 'string') ||
        Object.keys(value).some((k) => k !== 'page' && k !== 'space')
      ) {
        throw badRequest(`${where} must be null or {page, space}`);
      }
      return { page: p.page, space: p.space };
    }
    default:
      return value;
  }
}

/** Whether `operator` applies to the column (in/notIn to any; comparisons to ordered ones and metrics). */
export function checkOperator(def: ColumnDef, column: ColumnName, operator: Operator, where: string): void {
  const comparison = operator !== 'in' && operator !== 'notIn';
  if (def.type === 'metric' && typeof def.sql !== 'string') {
    throw badRequest(`${where}: column ${column} cannot be filtered`);
  }
  if (comparison && def.type === 'dimension' && !def.ordered) {
    throw badRequest(`${where}: operator ${operator} does not apply to column ${column} (use in or notIn)`);
  }
  if (!comparison && def.type === 'dimension' && def.value.kind === 'timestamp') {
    throw badRequest(`${where}: column datetime is filtered with greaterThan, lessThan and their OrEqual forms`);
  }
}
