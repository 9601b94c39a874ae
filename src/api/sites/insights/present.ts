/** The official `SiteInsightsQueryEventsAggregationResult`: one entry per selected column, its values by row. */
import { toCount } from '../../../db/dialect.js';
import type { AnswerColumn } from '../../../insights/service.js';

/** The instant a `datetime` group starts at, from its stored prefix (`2026-01-02T03`, `2026-01-02`, `2026-01`). */
function bucketStart(value: string): string {
  if (value.length === 13) return `${value}:00:00.000Z`;
  if (value.length === 10) return `${value}T00:00:00.000Z`;
  if (value.length === 7) return `${value}-01T00:00:00.000Z`;
  return value;
}

function cell(column: AnswerColumn, row: Record<string, unknown>): unknown {
  const [first] = column.aliases;
  const at = (alias: string | undefined) => row[alias as string];
  switch (column.column.column) {
    case 'eventsCount':
    case 'sessionsCount':
    case 'visitorsCount':
      return toCount(at(first) as number);
    case 'pageFeedbackRating':
      return {
        good: toCount(row[`${first?.replace(/_good$/, '')}_good`] as number),
        ok: toCount(row[`${first?.replace(/_good$/, '')}_ok`] as number),
        bad: toCount(row[`${first?.replace(/_good$/, '')}_bad`] as number),
      };
    case 'page': {
      const space = at(column.aliases[0]) as string | null;
      const page = at(column.aliases[1]) as string | null;
      return space === null ? null : { page, space };
    }
    case 'datetime':
      return bucketStart(at(first) as string);
    case 'dayOfWeek':
    case 'hourOfDay':
      return Number(at(first));
    default:
      return at(first) ?? null;
  }
}

export function presentAggregation(columns: AnswerColumn[], rows: Record<string, unknown>[]) {
  return {
    columns: columns.map((c) => ({
      column: c.column.column,
      values: rows.map((row) => cell(c, row)),
    })),
  };
}
