/** The `previous` of an `*.updated` event: the fields of the presented resource that changed, as they were. */
export function previousValues<T extends object>(
  before: T,
  after: T,
  ignore: readonly string[] = ['updatedAt'],
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (ignore.includes(key)) continue;
    if (JSON.stringify(value) !== JSON.stringify((after as Record<string, unknown>)[key])) changed[key] = value;
  }
  for (const key of Object.keys(after)) {
    if (!(key in before) && !ignore.includes(key)) changed[key] = null;
  }
  return changed;
}
