/**
 * Mutual exclusion per resource, so that a write's precondition check (`If-Match`) and the write
 * itself happen with no other write to the same resource in between.
 *
 * - In this process: one promise chain per key; waiters run in arrival order.
 * - Across processes on PostgreSQL: a session advisory lock (`pg_advisory_lock`) on the key's 64-bit
 *   hash, taken on a connection of a small pool of its own. The holder's queries use the main pool,
 *   so lock holders can never take every connection the work needs (no deadlock on the main pool);
 *   if the process dies, its connections close and PostgreSQL releases the locks.
 * - SQLite: in-process only. Several processes writing one SQLite file are not serialized here.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { isPostgresUrl, loadPg } from '../db/database.js';
import { ApiError } from '../lib/errors.js';

/** Longest wait for another process's lock on the same resource before answering 503. */
const LOCK_TIMEOUT_MS = 10_000;

/** A signed 64-bit number (as text, for `bigint`) naming `key` for `pg_advisory_lock`. */
function advisoryId(key: string): string {
  const digest = createHash('sha256').update(`bindery:resource:${key}`).digest();
  return digest.readBigInt64BE(0).toString();
}

export class ResourceLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly pool: pg.Pool | null;

  constructor(databaseUrl: string, options: { poolSize?: number } = {}) {
    this.pool = isPostgresUrl(databaseUrl)
      ? new (loadPg().Pool)({
          connectionString: databaseUrl,
          max: options.poolSize ?? 5,
          // A lock wait longer than this fails (55P03) instead of holding the request forever.
          options: `-c lock_timeout=${LOCK_TIMEOUT_MS}`,
        })
      : null;
    this.pool?.on('error', (error) => process.emitWarning(`PostgreSQL lock connection lost: ${error.message}`));
  }

  /** Runs `work` while holding the lock on `key` (in this process, and on PostgreSQL in every process). */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return this.pool ? await this.acrossProcesses(this.pool, key, work) : await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  private async acrossProcesses<T>(pool: pg.Pool, key: string, work: () => Promise<T>): Promise<T> {
    const id = advisoryId(key);
    const client = await pool.connect();
    let broken = false;
    try {
      try {
        await client.query('select pg_advisory_lock($1::bigint)', [id]);
      } catch (error) {
        broken = true;
        if ((error as { code?: string }).code === '55P03') {
          throw new ApiError(503, 'the resource is being changed by another request; try again', {
            'retry-after': '1',
          });
        }
        throw error;
      }
      try {
        return await work();
      } finally {
        try {
          await client.query('select pg_advisory_unlock($1::bigint)', [id]);
        } catch {
          // Closing the connection releases the lock just as well.
          broken = true;
        }
      }
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool?.end();
  }
}
