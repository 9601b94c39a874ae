/**
 * GitBook's `orderIndex` (a table record's place) is a fractional index: strings compared by code
 * units, not by locale ("Z" comes before "a"). The editor, the published renderer, the app's reader,
 * Markdown export and the search index order rows by this one comparison, so that they agree.
 */
export function compareOrderIndex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A table's records (`data.records`, by id) as rows: [id, record] in `orderIndex` order. The sort is
 * stable: records of equal indexes keep their keys' order. An index that is not a string sorts as "".
 */
export function recordsInOrder<R extends { orderIndex?: unknown }>(records: Record<string, R>): Array<[string, R]> {
  const index = (record: R) => (typeof record.orderIndex === 'string' ? record.orderIndex : '');
  return Object.entries(records).sort(([, a], [, b]) => compareOrderIndex(index(a), index(b)));
}
