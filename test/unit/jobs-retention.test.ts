/**
 * Finished jobs are kept a week, then purged: the purge deletes done and failed jobs that ended
 * before the cutoff and keeps the rest (at the edge: one millisecond either side), never touches a
 * queued or running job however old, goes through a backlog in bounded batches, stops between
 * batches when the app closes, deletes a job the worker ran once its week is over, and runs by
 * itself in a process with a job worker (not in an API-only one).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deleteFinishedJobsBefore, enqueue } from '../../src/jobs/queue.js';
import { KEEP_FINISHED_JOBS_MS, purgeFinishedJobs } from '../../src/jobs/retention.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

const DAY = 86_400_000;

// The purge deletes every finished job: on a database of this file's own.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('jobs-retention');
  h = await createHarness({ ownDatabase: database.url });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
beforeEach(async () => {
  await h.db.deleteFrom('jobs').execute();
});

const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.parse('2025-06-15T12:00:00.000Z');
const cutoff = now - KEEP_FINISHED_JOBS_MS;

/** Stores jobs as the queue leaves them: finished ones with `finished_at`, others without. */
async function store(jobs: { state: string; finishedAt?: number; createdAt?: number }[]): Promise<void> {
  await h.db
    .insertInto('jobs')
    .values(
      jobs.map(({ state, finishedAt, createdAt = finishedAt ?? now }) => ({
        id: newId(),
        kind: 'test.retention',
        payload: '{}',
        state,
        run_at: iso(createdAt),
        attempts: state === 'queued' ? 0 : 1,
        locked_by: state === 'running' ? 'w1' : null,
        locked_until: state === 'running' ? iso(createdAt + 60_000) : null,
        last_error: state === 'failed' ? 'boom' : null,
        created_at: iso(createdAt),
        finished_at: finishedAt === undefined ? null : iso(finishedAt),
      })),
    )
    .execute();
}

/** The stored jobs as `state@finished_at`, oldest first (unfinished ones last). */
async function remaining(): Promise<string[]> {
  const rows = await h.db.selectFrom('jobs').select(['state', 'finished_at']).execute();
  return rows
    .sort((a, b) => (a.finished_at ?? '~').localeCompare(b.finished_at ?? '~') || a.state.localeCompare(b.state))
    .map((r) => `${r.state}@${r.finished_at ?? '-'}`);
}

describe('finished-job retention', () => {
  it('deletes done and failed jobs that ended more than a week ago, to the millisecond', async () => {
    await store([
      { state: 'done', finishedAt: cutoff - 30 * DAY },
      { state: 'failed', finishedAt: cutoff - 1 },
      { state: 'done', finishedAt: cutoff },
      { state: 'failed', finishedAt: cutoff + 1 },
      { state: 'done', finishedAt: now },
    ]);
    expect(await purgeFinishedJobs(h.db, { now })).toBe(2);
    // Exactly at the cutoff is not older than a week: kept.
    expect(await remaining()).toEqual([`done@${iso(cutoff)}`, `failed@${iso(cutoff + 1)}`, `done@${iso(now)}`]);
    expect(await purgeFinishedJobs(h.db, { now })).toBe(0);
    // A millisecond later, the job that ended at the old cutoff has expired too.
    expect(await purgeFinishedJobs(h.db, { now: now + 1 })).toBe(1);
    expect(await remaining()).toEqual([`failed@${iso(cutoff + 1)}`, `done@${iso(now)}`]);
  });

  it('never deletes a queued or running job, however old', async () => {
    await store([
      { state: 'queued', createdAt: cutoff - 90 * DAY },
      { state: 'running', createdAt: cutoff - 90 * DAY },
      { state: 'done', finishedAt: cutoff - DAY },
    ]);
    expect(await purgeFinishedJobs(h.db, { now })).toBe(1);
    expect(await remaining()).toEqual(['queued@-', 'running@-']);
  });

  it('one statement deletes at most its batch, the oldest first', async () => {
    await store([1, 2, 3, 4, 5].map((d) => ({ state: 'done', finishedAt: cutoff - d * DAY })));
    expect(await deleteFinishedJobsBefore(h.db, iso(cutoff), 2)).toBe(2);
    expect(await remaining()).toEqual([3, 2, 1].map((d) => `done@${iso(cutoff - d * DAY)}`));
  });

  it('goes through a backlog in several batches until none is left', async () => {
    const ended = Array.from({ length: 7 }, (_, i) => ({ state: 'done', finishedAt: cutoff - (i + 1) * 3_600_000 }));
    await store([...ended, { state: 'done', finishedAt: cutoff + 1 }]);
    // 7 expired jobs in batches of 3: 3, 3, then 1.
    expect(await purgeFinishedJobs(h.db, { now, batchSize: 3 })).toBe(7);
    expect(await remaining()).toEqual([`done@${iso(cutoff + 1)}`]);
    // A backlog that is an exact multiple of the batch ends with an empty batch.
    await store(ended.slice(0, 6));
    expect(await purgeFinishedJobs(h.db, { now, batchSize: 3 })).toBe(6);
    expect(await remaining()).toEqual([`done@${iso(cutoff + 1)}`]);
  });

  it('stops between batches once its signal is aborted (the app is closing)', async () => {
    await store(Array.from({ length: 7 }, (_, i) => ({ state: 'failed', finishedAt: cutoff - (i + 1) * DAY })));
    const closing = new AbortController();
    closing.abort();
    expect(await purgeFinishedJobs(h.db, { now, batchSize: 3, signal: closing.signal })).toBe(3);
    expect(await remaining()).toHaveLength(4);
  });

  it('deletes a job the worker ran once a week has passed since it ended', async () => {
    const worker = new JobWorker(h.db, h.app.log, { concurrency: 1, pollMs: 20, leaseMs: 5_000 });
    worker.register('test.retention.real', async () => undefined);
    const id = await enqueue(h.db, 'test.retention.real', {});
    await worker.start();
    try {
      await expect
        .poll(
          async () => (await h.db.selectFrom('jobs').select('state').where('id', '=', id).executeTakeFirst())?.state,
        )
        .toBe('done');
    } finally {
      await worker.stop();
    }
    const { finished_at } = await h.db
      .selectFrom('jobs')
      .select('finished_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const ended = Date.parse(finished_at ?? '');
    expect(await purgeFinishedJobs(h.db, { now: ended + KEEP_FINISHED_JOBS_MS })).toBe(0);
    expect(await purgeFinishedJobs(h.db, { now: ended + KEEP_FINISHED_JOBS_MS + 1 })).toBe(1);
    expect(await remaining()).toEqual([]);
  });

  it('runs by itself when a process with a job worker becomes ready, and not in others', async () => {
    await store([
      { state: 'done', finishedAt: Date.now() - 8 * DAY },
      { state: 'failed', finishedAt: Date.now() - 30 * DAY },
      { state: 'done', finishedAt: Date.now() - DAY },
    ]);
    // This file's harness has no job worker: opening another one without a worker purges nothing.
    const apiOnly = await createHarness({ ownDatabase: database.url });
    await apiOnly.close();
    expect(await remaining()).toHaveLength(3);
    const worker = await createHarness({ ownDatabase: database.url, jobConcurrency: 1 });
    try {
      await expect.poll(async () => (await remaining()).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.close();
    }
  });
});
