/**
 * How this process learns that the data changed, for what it keeps in memory (the response cache,
 * src/http/response-cache.ts, and the short-lived caches of core/cache.ts):
 *
 * - Changes made through this process's connections are counted at the driver as they commit
 *   (src/db/writes.ts), synchronously, before the request that made them is answered.
 * - Changes made by other processes (other `WORKERS`, another server on the same PostgreSQL, the
 *   `bindery` command line, a script):
 *   - SQLite: the connection's `data_version` changes when another connection commits; it is read
 *     at the start of requests ({@link ChangeFeed.poll}), so a request sees what was committed
 *     elsewhere more than a millisecond before it arrived.
 *   - PostgreSQL: a statement trigger on every table (src/db/change-triggers.ts) sends a
 *     notification on channel `bindery_changes` when its transaction commits; each process listens
 *     on a connection of its own and learns of the change as soon as the notification arrives
 *     (milliseconds). The listening connection is checked with a notification of its own before it
 *     is trusted; while it is down, {@link ChangeFeed.generation} answers undefined (nothing may be
 *     served from memory on the strength of it) and the short-lived caches fall back to their TTL.
 *   Either way the change is counted on this process's {@link WriteCounter}, on its scopes when the
 *   notification names them (a Bindery process's transaction: `<pid>:<scopes>`, src/db/writes.ts),
 *   else as global; the short-lived caches drop what those scopes show ({@link invalidateScopes}),
 *   or everything ({@link invalidateEverything}). SQLite's `data_version` says nothing of what
 *   changed: a change there is always global.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { invalidateEverything, invalidateScopes } from '../core/cache.js';
import { CHANGES_CHANNEL } from '../db/change-triggers.js';
import { type Db, driverOf, loadPg } from '../db/database.js';
import type { WriteCounter } from '../db/writes.js';

/** How long the listening connection's own test notification may take before it is distrusted. */
const PROBE_TIMEOUT_MS = 5_000;
/** The payload of a probe notification starts with this (a change's payload is a backend pid). */
const PROBE_PREFIX = 'probe:';
/**
 * SQLite: how often `data_version` is read at most. Reading it opens a read transaction (~4 µs,
 * as much as the rest of a cached answer); requests arriving within the same millisecond share
 * one reading.
 */
const DATA_VERSION_EVERY_MS = 1;
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** What this process learns of changes; null for a database not made by createDb (a test's own). */
    changeFeed: ChangeFeed | null;
  }
}

export class ChangeFeed {
  private trusted: boolean;
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly probes = new Map<string, () => void>();
  private readonly dataVersion: (() => number) | null;
  private lastDataVersion = 0;
  private lastPolled = 0;

  constructor(
    private readonly db: Db,
    private readonly writes: WriteCounter,
    private readonly log: FastifyBaseLogger,
  ) {
    const handle = driverOf(db);
    if (handle?.kind === 'sqlite') {
      const statement = handle.database.prepare('pragma data_version').pluck();
      this.dataVersion = () => statement.get() as number;
      this.lastDataVersion = this.dataVersion();
      this.trusted = true;
    } else {
      this.dataVersion = null;
      this.trusted = false; // until the listening connection has proved itself
    }
  }

  /** Whether {@link poll} has anything to do (SQLite): requests call it, as the front door does. */
  get pollsOnRequest(): boolean {
    return this.dataVersion !== null;
  }

  /** For a Db made by createDb (undefined for one made elsewhere, e.g. a test's own Kysely). */
  static of(db: Db, log: FastifyBaseLogger): ChangeFeed | undefined {
    const handle = driverOf(db);
    return handle ? new ChangeFeed(db, handle.writes, log) : undefined;
  }

  /**
   * A number that moves whenever committed data may have changed, or undefined when this process
   * cannot currently know of every change (PostgreSQL without its listening connection).
   */
  generation(): number | undefined {
    return this.trusted ? this.writes.committed : undefined;
  }

  /**
   * When each scope of the data last changed (src/db/writes.ts), or undefined when this process
   * cannot currently know of every change.
   */
  changes(): WriteCounter | undefined {
    return this.trusted ? this.writes : undefined;
  }

  /**
   * SQLite: looks for commits of other connections (run at the start of every request; at most
   * once a millisecond, so a request sees what other processes committed up to 1 ms before it).
   */
  poll(): void {
    if (!this.dataVersion) return;
    const now = performance.now();
    if (now - this.lastPolled < DATA_VERSION_EVERY_MS) return;
    this.lastPolled = now;
    const handle = driverOf(this.db);
    if (handle?.kind !== 'sqlite' || !handle.database.open) return;
    const version = this.dataVersion();
    if (version !== this.lastDataVersion) {
      this.lastDataVersion = version;
      this.changedElsewhere(null);
    }
  }

  /** PostgreSQL: starts listening (resolves once trusted, or once the first attempt failed). */
  async start(): Promise<void> {
    if (this.dataVersion || this.closed) return;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.trusted = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  /** Another process committed a change of `scopes` (null: unknown, global). */
  private changedElsewhere(scopes: readonly string[] | null): void {
    this.writes.commit(scopes);
    if (scopes === null) invalidateEverything();
    else invalidateScopes(scopes);
  }

  private async connect(): Promise<void> {
    const handle = driverOf(this.db);
    if (handle?.kind !== 'postgres') return;
    const client = new (loadPg().Client)({ connectionString: handle.connectionString });
    this.client = client;
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      const probe = this.probes.get(payload);
      if (probe) return probe();
      // Another process checking its own listening connection (as this one does on connecting):
      // nothing changed, and treating it as a change would empty this process's caches.
      if (payload.startsWith(PROBE_PREFIX)) return;
      // The payload starts with the writing connection's backend pid: this process's own commits
      // were counted at its driver already.
      const colon = payload.indexOf(':');
      if (handle.pids.has(Number(colon < 0 ? payload : payload.slice(0, colon)))) return;
      this.changedElsewhere(scopesOf(payload, colon));
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
      await this.probe(handle.pool);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.client !== client || this.closed) return;
    this.retryMs = RECONNECT_MIN_MS;
    // Whatever happened while nobody listened is unknown: start from empty caches.
    this.changedElsewhere(null);
    this.trusted = true;
  }

  /** Sends a notification through the pool and waits for it on the listening connection. */
  private async probe(pool: pg.Pool): Promise<void> {
    const token = `${PROBE_PREFIX}${randomUUID()}`;
    const arrived = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probes.delete(token);
        reject(new Error(`no notification arrived within ${PROBE_TIMEOUT_MS} ms (a pooler in transaction mode?)`));
      }, PROBE_TIMEOUT_MS);
      this.probes.set(token, () => {
        clearTimeout(timer);
        this.probes.delete(token);
        resolve();
      });
    });
    await pool.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, token]);
    await arrived;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.trusted = false;
    this.writes.commit(null);
    client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn(
      { err: error },
      `change notifications lost: responses are not served from memory until they are back (retry in ${this.retryMs} ms)`,
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}

/** The scopes a change notification names: none (a trigger's pid alone) or `*` is global. */
function scopesOf(payload: string, colon: number): string[] | null {
  if (colon < 0) return null;
  const list = payload.slice(colon + 1);
  return list === '*' ? null : list.split(',').filter((scope) => scope !== '');
}

/**
 * The app's change feed: SQLite reads `data_version` at the start of every request (an `onRequest`
 * hook: register this before any other, so every request sees what was committed elsewhere);
 * PostgreSQL listens from ready to close.
 */
export const changeFeed = fp(
  async (app: FastifyInstance) => {
    const feed = ChangeFeed.of(app.db, app.log) ?? null;
    app.decorate('changeFeed', feed);
    if (!feed) return;
    if (feed.pollsOnRequest) {
      // A callback hook: an async one costs a promise and a turn per request.
      app.addHook('onRequest', (_request, _reply, done) => {
        feed.poll();
        done();
      });
    }
    app.addHook('onReady', async () => feed.start());
    app.addHook('onClose', async () => feed.close());
  },
  { name: 'bindery-change-feed', dependencies: ['bindery-context'] },
);
