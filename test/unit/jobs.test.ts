import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob, enqueue, heartbeat, MAX_ATTEMPTS } from '../../src/jobs/queue.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { newId } from '../../src/lib/ids.js';
import { nowIso } from '../../src/lib/time.js';
import { createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A job kind of its own per test, so tests (and files sharing a PostgreSQL database) never meet. */
const kind = () => `test.${newId(8)}`;
const jobRow = (id: string) => h.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function worker(options: Partial<{ concurrency: number; pollMs: number; leaseMs: number }> = {}) {
  return new JobWorker(h.db, h.app.log, { concurrency: 2, pollMs: 20, leaseMs: 5_000, ...options });
}

describe('job queue', () => {
  it('hands each job to exactly one of many concurrent claimers', async () => {
    const k = kind();
    const ids = await Promise.all([1, 2, 3].map((n) => enqueue(h.db, k, { n })));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimJob(h.db, `claimer-${i}`, [k], 60_000)));
    const claimed = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(await claimJob(h.db, 'late', [k], 60_000)).toBeNull();
  });

  it('lets another worker take over a job whose lease ran out, and gives up after repeated crashes', async () => {
    const k = kind();
    const id = await enqueue(h.db, k, {});
    const first = await claimJob(h.db, 'dead-1', [k], 1);
    expect(first).toMatchObject({ id, state: 'running', attempts: 1, locked_by: 'dead-1' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The dead worker's heartbeat no longer holds it once another has it.
    const second = await claimJob(h.db, 'alive', [k], 60_000);
    expect(second).toMatchObject({ id, attempts: 2, locked_by: 'alive' });
    expect(await heartbeat(h.db, id, 'dead-1', 60_000)).toBe(false);
    expect(await heartbeat(h.db, id, 'alive', 60_000)).toBe(true);

    const poison = await enqueue(h.db, k, {});
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      expect((await claimJob(h.db, `crash-${i}`, [k], 1))?.id).toBe(poison);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await claimJob(h.db, 'next', [k], 1)).toBeNull();
    expect(await jobRow(poison)).toMatchObject({ state: 'failed', last_error: expect.stringContaining('given up') });
  });

  it('does not hand out jobs before their time or of kinds the worker does not run', async () => {
    const k = kind();
    await enqueue(h.db, k, {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await claimJob(h.db, 'w', [k], 1000)).toBeNull();
    await enqueue(h.db, kind(), {});
    expect(await claimJob(h.db, 'w', [k], 1000)).toBeNull();
    expect(await claimJob(h.db, 'w', [], 1000)).toBeNull();
  });
});

describe('job worker', () => {
  it('runs jobs with their payload, marks them done, and failed when the handler throws', async () => {
    const k = kind();
    const seen: unknown[] = [];
    const w = worker();
    w.register<{ fail?: boolean }>(k, async (payload, context) => {
      expect(context.attempt).toBe(1);
      if (payload.fail) throw new Error('broken on purpose');
      seen.push(payload);
    });
    w.start();
    try {
      const ok = await enqueue(h.db, k, { value: 42 });
      const bad = await enqueue(h.db, k, { fail: true });
      w.wake();
      await until(async () => (await jobRow(ok)).state === 'done' && (await jobRow(bad)).state === 'failed');
      expect(seen).toEqual([{ value: 42 }]);
      expect(await jobRow(bad)).toMatchObject({ last_error: 'broken on purpose', locked_by: null });
      expect((await jobRow(ok)).finished_at).toEqual(expect.any(String));
    } finally {
      await w.stop();
    }
  });

  it('claims due jobs and keeps leases on the clock, even after a burst ran the stamps ahead of it', async () => {
    // 20,000 stamps in a burst put nowIso() ~20 s ahead of the clock (it never goes back).
    for (let i = 0; i < 20_000; i++) nowIso();
    const k = kind();
    const id = await enqueue(h.db, k, {});
    const claimed = await claimJob(h.db, 'first', [k], 5_000);
    expect(claimed?.id).toBe(id);
    // Its lease runs 5 s on the clock: not over for a claimer that reads the clock.
    expect(await claimJob(h.db, 'second', [k], 5_000)).toBeNull();
  });

  it('renews the lease of a long job so nobody else takes it', async () => {
    const k = kind();
    // A lease of a second, renewed every third of it: a busy machine may delay a renewal by a few
    // hundred milliseconds, and a thief in this same process would then take the job unfairly.
    const w = worker({ leaseMs: 1_000 });
    // The job runs until the test lets it end (a timed job could end unseen on a busy machine).
    let finish = () => {};
    w.register(k, () => new Promise<void>((resolve) => (finish = resolve)));
    w.start();
    try {
      const id = await enqueue(h.db, k, {});
      w.wake();
      await until(async () => (await jobRow(id)).state === 'running');
      // Two and a half leases long: the worker must have renewed it, or the thief would get it.
      const deadline = Date.now() + 2_500;
      while (Date.now() < deadline) {
        expect(await claimJob(h.db, 'thief', [k], 60_000)).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      finish();
      await until(async () => (await jobRow(id)).state === 'done');
      expect((await jobRow(id)).attempts).toBe(1);
    } finally {
      finish();
      await w.stop();
    }
  });

  it('gives running jobs back on stop, and another worker finishes them', async () => {
    const k = kind();
    const stopping = worker();
    let aborted = false;
    stopping.register(
      k,
      (_payload, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    );
    stopping.start();
    const id = await enqueue(h.db, k, {});
    stopping.wake();
    await until(async () => (await jobRow(id)).state === 'running');
    await stopping.stop();
    expect(aborted).toBe(true);
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null });

    const next = worker();
    next.register(k, async () => {});
    next.start();
    try {
      await until(async () => (await jobRow(id)).state === 'done');
    } finally {
      await next.stop();
    }
  });

  it('refuses a second handler for the same kind, and a worker of concurrency 0 never runs', async () => {
    const k = kind();
    const w = worker({ concurrency: 0 });
    w.register(k, async () => {});
    expect(() => w.register(k, async () => {})).toThrow(/already registered/);
    w.start();
    const id = await enqueue(h.db, k, {});
    w.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await jobRow(id)).state).toBe('queued');
    await w.stop();
  });
});
