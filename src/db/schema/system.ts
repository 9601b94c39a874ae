/** Table types of server settings, the job queue, idempotency records. Storage conventions: `../schema.ts`. */
import type { Selectable } from 'kysely';

export interface SettingsTable {
  key: string;
  value: string;
}

export interface JobsTable {
  id: string;
  /** Which handler runs it, e.g. `openapi.process`. */
  kind: string;
  /** JSON object given to the handler. */
  payload: string;
  /** `queued`, `running`, `done` or `failed`. */
  state: string;
  /** Not claimed before this time. */
  run_at: string;
  /** How many times it was claimed (a crashed run counts). */
  attempts: number;
  /** Id of the worker holding it while `running`. */
  locked_by: string | null;
  /** While `running`: when the holder's lease ends; past it, another worker may take the job over. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The first response to a POST sent with an `Idempotency-Key`, replayed to its retries (http/idempotency.ts). */
export interface IdempotencyKeysTable {
  token_id: string;
  key: string;
  /** SHA-256 of method, path and body: a retry must send the same. */
  fingerprint: string;
  /** `running` while the first request is being handled, then `done`. */
  state: string;
  status: number | null;
  /** JSON object of the response headers replayed (`location`, `content-type`). */
  headers: string | null;
  body: string | null;
  created_at: string;
  expires_at: string;
}

export type JobRow = Selectable<JobsTable>;
