/**
 * The job table's operations. A job is claimed by exactly one worker at a time, even with several
 * server processes on one PostgreSQL database: the claim locks its row with `FOR UPDATE SKIP LOCKED`
 * (so concurrent claimers pass over it) and the UPDATE that takes it repeats the "still claimable"
 * condition (which alone is enough on SQLite, whose writers are serialized).
 *
 * A claim is a lease: the holder renews it while it works (`heartbeat`). If the process dies, the
 * lease runs out and the job becomes claimable again, so work interrupted by a crash or restart is
 * picked up by the next worker.
 */
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { dialectOf, forUpdateSkipLocked, inSmallSubquery } from '../db/dialect.js';
import type { Database, JobRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { nowIso } from '../lib/time.js';
import { jobEnqueued } from './wake.js';

/** A job claimed this many times without finishing (crash after crash) is given up. */
export const MAX_ATTEMPTS = 5;

/**
 * Adds a job. Pass the transaction that makes the change the job is about, so both are stored or
 * neither is; when that transaction is run by `inTransaction`, the workers of this process are
 * woken once it commits (src/jobs/wake.ts).
 */
export async function enqueue(
  db: Kysely<Database>,
  kind: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date } = {},
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      state: 'queued',
      // The clock, not `now`: nowIso() runs ahead of it after a burst of writes, and a job due
      // "later" by that much would wait for the clock to catch up.
      run_at: (options.runAt ?? new Date()).toISOString(),
      attempts: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      finished_at: null,
    })
    .execute();
  jobEnqueued(db, options.runAt);
  return id;
}

/** Due queued jobs, and running jobs whose holder's lease has run out. */
function claimable(now: string) {
  return (eb: ExpressionBuilder<Database, 'jobs'>): Expression<SqlBool> =>
    eb.or([
      eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
      eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
    ]);
}

function leaseEnd(leaseMs: number): string {
  return new Date(Date.now() + leaseMs).toISOString();
}

/** Claims the oldest claimable job of one of `kinds` for `workerId`; null when there is none. */
export async function claimJob(db: Db, workerId: string, kinds: string[], leaseMs: number): Promise<JobRow | null> {
  if (kinds.length === 0) return null;
  const claim = async (q: Kysely<Database>): Promise<JobRow | 'none' | 'lost'> => {
    // Compared with run_at and with leases (both on the clock, leaseEnd): not nowIso(), which runs
    // ahead of the clock after a burst of writes and would take a running job's lease for lapsed.
    const now = new Date().toISOString();
    const candidate = await forUpdateSkipLocked(
      db,
      q.selectFrom('jobs').select('id').where('kind', 'in', kinds).where(claimable(now)).orderBy('run_at').limit(1),
    ).executeTakeFirst();
    if (!candidate) return 'none';
    const row = await q
      .updateTable('jobs')
      .set({
        state: 'running',
        locked_by: workerId,
        locked_until: leaseEnd(leaseMs),
        attempts: sql<number>`attempts + 1`,
      })
      .where('id', '=', candidate.id)
      .where(claimable(now))
      .returningAll()
      .executeTakeFirst();
    return row ?? 'lost';
  };
  // The row lock lives as long as a transaction; SQLite needs none (and a deferred SQLite
  // transaction that reads then writes fails instead of waiting when another process writes).
  let job: JobRow | null = null;
  // On SQLite, concurrent claimers may pick the same candidate; the losers of the UPDATE look again.
  for (let tries = 0; tries < 5 && !job; tries++) {
    const candidate = dialectOf(db) === 'postgres' ? await db.transaction().execute(claim) : await claim(db);
    if (candidate === 'none') return null;
    job = candidate === 'lost' ? null : candidate;
  }
  if (job && job.attempts > MAX_ATTEMPTS) {
    await settle(db, job.id, workerId, 'failed', `given up after ${MAX_ATTEMPTS} interrupted attempts`);
    return null;
  }
  return job;
}

/** Extends the lease; false when the worker no longer holds the job (another took it over). */
export async function heartbeat(db: Db, jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: leaseEnd(leaseMs) })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends a held job as `done` or `failed`. */
export async function settle(
  db: Db,
  jobId: string,
  workerId: string,
  state: 'done' | 'failed',
  error: string | null = null,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state, last_error: error, locked_by: null, locked_until: null, finished_at: nowIso() })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Gives a held job back untouched (on shutdown), so another worker can run it at once. */
export async function release(db: Db, jobId: string, workerId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'queued', locked_by: null, locked_until: null, attempts: sql<number>`attempts - 1` })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('state', '=', 'running')
    .execute();
}

/**
 * Deletes at most `limit` jobs that ended (done or failed) before `before`, oldest first, and
 * returns how many: one statement, so it commits on its own (the purge calls it batch after batch:
 * ./retention.ts). The inner select reads the `finished_at` index (migration 0018) and stops after
 * `limit` rows; the delete finds them by primary key. On PostgreSQL, rows another process is
 * deleting at the same moment are skipped rather than waited for.
 *
 * No condition on `state`: `finished_at` is set by `settle` alone, when a job becomes done or
 * failed, and no job leaves those states. With one (`state in ('done', 'failed')`), SQLite's
 * planner chose the `state` index and sorted every finished job on each batch (41 ms for 300,000
 * jobs, against 0.5 ms reading the `finished_at` index).
 */
export async function deleteFinishedJobsBefore(db: Db, before: string, limit: number): Promise<number> {
  const ended = forUpdateSkipLocked(
    db,
    db.selectFrom('jobs').select('id').where('finished_at', '<', before).orderBy('finished_at').limit(limit),
  );
  const result = await db
    .deleteFrom('jobs')
    .where((eb) => inSmallSubquery(db, eb.ref('id'), ended))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many jobs are in each state (metrics read it at scrape time). */
export async function countJobsByState(db: Db): Promise<{ state: string; count: number }[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute();
  return rows.map((r) => ({ state: r.state, count: Number(r.count) }));
}
