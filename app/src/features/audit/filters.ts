/** The audit log's filters as the API's query (`from`/`to` inclusive instants, exact `action`, `actor`, `target`). */
import type { AuditFilters } from './types';

/** `YYYY-MM-DD` read as a local day: its first or last millisecond, as an ISO instant; '' stays undefined. */
export function dayBound(date: string, end: 'start' | 'end'): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const instant =
    end === 'start' ? new Date(year, month, day, 0, 0, 0, 0) : new Date(year, month, day, 23, 59, 59, 999);
  return instant.toISOString();
}

export function auditQuery(filters: AuditFilters, limit: number, page?: string): URLSearchParams {
  const query = new URLSearchParams({ limit: String(limit) });
  if (filters.action) query.set('action', filters.action);
  if (filters.actor) query.set('actor', filters.actor);
  if (filters.target.trim()) query.set('target', filters.target.trim());
  const from = dayBound(filters.fromDate, 'start');
  const to = dayBound(filters.toDate, 'end');
  if (from) query.set('from', from);
  if (to) query.set('to', to);
  if (page) query.set('page', page);
  return query;
}
