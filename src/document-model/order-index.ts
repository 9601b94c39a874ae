/**
 * GitBook's `orderIndex` (a table record's place) is a fractional index: strings compared by code
 * units, not by locale ("Z" comes before "a"). The editor, the published renderer, Markdown export
 * and the search index order rows by this one comparison, so that they agree.
 */
export function compareOrderIndex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
