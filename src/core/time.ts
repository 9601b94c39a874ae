/** Current time as a stored/returned Timestamp (ISO 8601, UTC, milliseconds). */
export function nowIso(): string {
  return new Date().toISOString();
}
