/**
 * The worker loop every server process runs (unless `JOB_CONCURRENCY=0`): it claims jobs of the
 * kinds it has handlers for, runs up to `concurrency` at once, renews their leases while they run,
 * and polls every `pollMs` when idle; jobs committed by this process wake it at once (`wake()`,
 * called through src/jobs/wake.ts).
 * `stop()` cancels running jobs through their AbortSignal and gives them back to the queue.
 */
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { JobRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { claimJob, heartbeat, release, settle } from './queue.js';
import { onJobsCommitted } from './wake.js';

export interface JobContext {
  jobId: string;
  /** 1 on the first run; more when an earlier run was interrupted. */
  attempt: number;
  /** Aborted when the process shuts down or the lease is lost: stop and throw. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

/**
 * Runs one job. Resolving marks it done; throwing marks it failed (there are no automatic retries:
 * a handler records its own domain errors and resolves). Handlers must be safe to run again from
 * the start, since a crash can interrupt them anywhere.
 */
/** Runs one job; `payload` is the JSON object given to enqueue for this kind. */
export type JobHandler<P = unknown> = (payload: P, context: JobContext) => Promise<void>;

export interface WorkerOptions {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
}

export class JobWorker {
  /** Identifies this worker in `jobs.locked_by` (host and pid help when reading the table). */
  readonly id = `${hostname()}:${process.pid}:${newId(6)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private active = false;
  private tickPromise: Promise<void> | null = null;
  private tickAgain = false;
  private stopListening: (() => void) | null = null;
  private readonly settledListeners: ((kind: string, outcome: 'done' | 'failed') => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    readonly options: WorkerOptions,
  ) {}

  /** Declares how jobs of `kind` are run (src/background.ts declares every kind). */
  register<P>(kind: string, handler: JobHandler<P>): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is already registered`);
    // The kind names the payload's shape: whoever enqueues a kind gives that handler's payload.
    this.handlers.set(kind, handler as JobHandler);
  }

  /** Calls `listener` each time this worker ends a job as done or failed (metrics count them). */
  onSettled(listener: (kind: string, outcome: 'done' | 'failed') => void): void {
    this.settledListeners.push(listener);
  }

  private settled(kind: string, outcome: 'done' | 'failed'): void {
    for (const listener of this.settledListeners) listener(kind, outcome);
  }

  start(): void {
    if (this.active || this.options.concurrency === 0) return;
    this.active = true;
    this.stopListening = onJobsCommitted(() => this.wake());
    this.schedule(0);
  }

  /** Looks for work now instead of at the next poll. */
  wake(): void {
    if (!this.active) return;
    if (this.tickPromise) this.tickAgain = true;
    else this.schedule(0);
  }

  /** Stops claiming, cancels running jobs and waits until they have been given back. */
  async stop(): Promise<void> {
    this.active = false;
    this.stopListening?.();
    this.stopListening = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.tickPromise;
    for (const { controller } of this.running.values()) controller.abort(new Error('shutting down'));
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private schedule(delayMs: number): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    // unref: a pending poll must not keep a process alive that is otherwise done.
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tickPromise = this.tick().finally(() => {
        this.tickPromise = null;
        const again = this.tickAgain;
        this.tickAgain = false;
        this.schedule(again ? 0 : this.options.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const kinds = [...this.handlers.keys()];
      while (this.active && this.running.size < this.options.concurrency) {
        const job = await claimJob(this.db, this.id, kinds, this.options.leaseMs);
        if (!job) break;
        if (!this.active) {
          await release(this.db, job.id, this.id);
          break;
        }
        this.run(job);
      }
    } catch (error) {
      // A database hiccup: log it and try again at the next poll.
      this.log.error({ err: error }, 'job worker could not claim jobs');
    }
  }

  private run(job: JobRow): void {
    const controller = new AbortController();
    const log = this.log.child({ jobId: job.id, jobKind: job.kind });
    let lostLease = false;
    const beat = setInterval(
      () => {
        heartbeat(this.db, job.id, this.id, this.options.leaseMs)
          .then((held) => {
            if (!held) {
              lostLease = true;
              controller.abort(new Error('lease lost'));
            }
          })
          .catch((error) => log.warn({ err: error }, 'job heartbeat failed'));
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    beat.unref();

    const execute = async () => {
      const handler = this.handlers.get(job.kind) as JobHandler;
      try {
        await handler(JSON.parse(job.payload), {
          jobId: job.id,
          attempt: job.attempts,
          signal: controller.signal,
          log,
        });
        if (!lostLease) {
          await settle(this.db, job.id, this.id, 'done');
          this.settled(job.kind, 'done');
        }
      } catch (error) {
        if (lostLease) log.warn('job lease lost to another worker; leaving the job to it');
        else if (controller.signal.aborted) await release(this.db, job.id, this.id);
        else {
          log.error({ err: error }, 'job failed');
          await settle(this.db, job.id, this.id, 'failed', error instanceof Error ? error.message : String(error));
          this.settled(job.kind, 'failed');
        }
      }
    };
    const done = execute()
      .catch((error) => log.error({ err: error }, 'could not record the end of a job'))
      .finally(() => {
        clearInterval(beat);
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { controller, done });
  }
}
