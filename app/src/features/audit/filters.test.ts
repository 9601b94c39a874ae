import { describe, expect, it } from 'vitest';
import { auditQuery, dayBound } from './filters';
import { NO_FILTERS } from './types';

describe('the audit log filters', () => {
  it('reads a date as the first and last millisecond of that local day', () => {
    const start = new Date(dayBound('2026-03-05', 'start') as string);
    const end = new Date(dayBound('2026-03-05', 'end') as string);
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours(), start.getMinutes()]).toEqual([
      2026, 2, 5, 0, 0,
    ]);
    expect(end.getTime() - start.getTime()).toBe(24 * 60 * 60 * 1000 - 1);
    expect(dayBound('', 'start')).toBeUndefined();
    expect(dayBound('5 March', 'end')).toBeUndefined();
  });

  it('sends only the filters that are set, with the limit and the page', () => {
    expect(auditQuery(NO_FILTERS, 20).toString()).toBe('limit=20');
    const query = auditQuery(
      { action: 'site.published', actor: 'u1', target: ' s1 ', fromDate: '2026-03-05', toDate: '2026-03-06' },
      20,
      'cursor',
    );
    expect(query.get('action')).toBe('site.published');
    expect(query.get('actor')).toBe('u1');
    expect(query.get('target')).toBe('s1');
    expect(query.get('from')).toBe(dayBound('2026-03-05', 'start'));
    expect(query.get('to')).toBe(dayBound('2026-03-06', 'end'));
    expect(query.get('page')).toBe('cursor');
  });
});
