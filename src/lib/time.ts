let lastMs = 0;

/**
 * Current time as a stored/returned Timestamp (ISO 8601, UTC, milliseconds). Strictly increasing
 * within the process: two rows created in the same millisecond still sort in creation order, which
 * lists ordered by creation time (and their keyset cursors) rely on. Under a burst of more than 1,000
 * calls a second the stamps run ahead of the clock by at most that burst.
 */
export function nowIso(): string {
  lastMs = Math.max(Date.now(), lastMs + 1);
  return new Date(lastMs).toISOString();
}
