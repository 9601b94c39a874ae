/**
 * `GET /metrics` in the Prometheus text format (prom-client), served on the API's port only when
 * `METRICS_TOKEN` is set, and only to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time). Without the variable nothing here is registered: the route does not exist (404) and no hook
 * runs on the hot path.
 *
 * - `bindery_http_requests_total` and `bindery_http_request_duration_seconds` by method, route
 *   pattern (never the raw URL, so ids do not explode the series; `unmatched` for 404s of the router)
 *   and status. The in-process GETs of conditional requests are not counted.
 * - `bindery_db_pool_connections{state}`: PostgreSQL pool total/idle/waiting; SQLite has one
 *   connection (queries take turns on it), so total 1 and `bindery_db_size_bytes` (the file's pages).
 * - `bindery_jobs{state}` (the queue's depth, read from the jobs table at scrape time, every process's
 *   jobs) and `bindery_job_runs_total{kind,outcome}` (jobs this process ended; `failed` are failures).
 * - `bindery_sse_streams_open`: server-sent event streams (ask, questions) open now.
 * - `bindery_response_cache_lookups_total{outcome}` (hit, miss) and `bindery_response_cache_bytes`.
 * - with `RESPONSE_CACHE_DIAGNOSIS=1`, `bindery_response_cache_diagnosis_total{route,outcome}`: each
 *   GET's route and what the response cache did, hit or why it missed (src/http/cache-diagnosis.ts).
 * - prom-client's default process metrics (CPU, memory, event loop lag, GC).
 *
 * Each app has its own registry (tests build many apps in one process). prom-client is loaded only
 * when metrics are on (about 10 MB of idle memory otherwise spent on nothing).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type * as PromClient from 'prom-client';
import type { Counter, Histogram, Registry } from 'prom-client';
import { type Db, driverOf } from '../db/database.js';
import { countJobsByState } from '../jobs/queue.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { isInternalRequest } from './conditional.js';
import type { ResponseCache } from './response-cache.js';

const JOB_STATES = ['queued', 'running', 'done', 'failed'];

/** The counters the rest of the app feeds; null on the app when metrics are off. */
export class Metrics {
  readonly registry: Registry;
  private openStreams = 0;
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route' | 'status'>;
  readonly jobRuns: Counter<'kind' | 'outcome'>;

  constructor(db: Db, prom: typeof PromClient, responseCache: () => ResponseCache | null = () => null) {
    const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = prom;
    this.registry = new Registry();
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'bindery_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'bindery_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobRuns = new Counter({
      name: 'bindery_job_runs_total',
      help: 'Jobs this process ended, by kind and outcome (done or failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    const self = this;
    new Gauge({
      name: 'bindery_sse_streams_open',
      help: 'Server-sent event streams open now',
      registers,
      collect() {
        this.set(self.openStreams);
      },
    });
    new Gauge({
      name: 'bindery_jobs',
      help: 'Jobs in the queue (every process on this database), by state',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = new Map((await countJobsByState(db)).map((r) => [r.state, r.count]));
        for (const state of new Set([...JOB_STATES, ...counts.keys()])) this.set({ state }, counts.get(state) ?? 0);
      },
    });
    const driver = driverOf(db);
    new Gauge({
      name: 'bindery_db_pool_connections',
      help: 'Database connections: total, idle, and requests waiting for one (SQLite: one connection)',
      labelNames: ['state'],
      registers,
      collect() {
        if (driver?.kind === 'postgres') {
          this.set({ state: 'total' }, driver.pool.totalCount);
          this.set({ state: 'idle' }, driver.pool.idleCount);
          this.set({ state: 'waiting' }, driver.pool.waitingCount);
        } else this.set({ state: 'total' }, 1);
      },
    });
    if (driver?.kind === 'sqlite') {
      const database = driver.database;
      new Gauge({
        name: 'bindery_db_size_bytes',
        help: 'Size of the SQLite database (pages in use times page size, WAL not included)',
        registers,
        collect() {
          const pages = database.pragma('page_count', { simple: true }) as number;
          const size = database.pragma('page_size', { simple: true }) as number;
          this.set(pages * size);
        },
      });
    }
    const counted = { hit: 0, miss: 0 };
    new Counter({
      name: 'bindery_response_cache_lookups_total',
      help: 'GET requests of cacheable routes answered from memory (hit) or by their handler (miss)',
      labelNames: ['outcome'],
      registers,
      collect() {
        const cache = responseCache();
        if (!cache) return;
        this.inc({ outcome: 'hit' }, cache.hits - counted.hit);
        this.inc({ outcome: 'miss' }, cache.misses - counted.miss);
        counted.hit = cache.hits;
        counted.miss = cache.misses;
      },
    });
    const diagnosed = new Map<string, number>();
    new Counter({
      name: 'bindery_response_cache_diagnosis_total',
      help: 'GET requests by route and what the response cache did (RESPONSE_CACHE_DIAGNOSIS=1: hit, or why it missed)',
      labelNames: ['route', 'outcome'],
      registers,
      collect() {
        for (const [route, outcomes] of responseCache()?.diagnosis?.counts ?? []) {
          for (const [outcome, count] of outcomes) {
            const label = `${route} ${outcome}`;
            this.inc({ route, outcome }, count - (diagnosed.get(label) ?? 0));
            diagnosed.set(label, count);
          }
        }
      },
    });
    new Gauge({
      name: 'bindery_response_cache_bytes',
      help: 'Memory held by answers kept in the response cache',
      registers,
      collect() {
        this.set(responseCache()?.bytes ?? 0);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one answered request (`elapsedMs` from its arrival). */
  record(request: FastifyRequest, statusCode: number, elapsedMs: number): void {
    if (isInternalRequest(request)) return;
    this.recordRoute(request.method, request.routeOptions.url ?? 'unmatched', statusCode, elapsedMs);
  }

  /** Counts a request by its route's pattern (for requests answered outside Fastify). */
  recordRoute(method: string, route: string, statusCode: number, elapsedMs: number): void {
    const status = statusLabel(statusCode);
    this.requests.labels(method, route, status).inc();
    this.duration.labels(method, route, status).observe(elapsedMs / 1000);
  }

  /** Counts a server-sent event stream as open; call the function returned when it closes. */
  streamOpened(): () => void {
    this.openStreams++;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.openStreams--;
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; null when `METRICS_TOKEN` is not set. */
    metrics: Metrics | null;
  }
}

/**
 * Counts an event stream as open until its response closes (ended, or the client went away), then
 * counts its request (a hijacked reply skips the onResponse hook); a no-op when metrics are off.
 */
export function trackStream(reply: FastifyReply): void {
  const metrics = reply.server.metrics;
  if (!metrics) return;
  const close = metrics.streamOpened();
  reply.raw.once('close', () => {
    close();
    metrics.record(reply.request, reply.raw.statusCode, reply.elapsedTime);
  });
}

/** Status codes as label strings, made once (a number turned into a string per request would allocate). */
const STATUS_LABELS = Array.from({ length: 600 }, (_, code) => String(code));
function statusLabel(code: number): string {
  return STATUS_LABELS[code] ?? String(code);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The metrics hooks and `GET /metrics` when `token` is set; decorates `app.metrics` (null without
 * it). Counts the job runs of `app.jobs` (src/background.ts) and reads the response cache's counts
 * at scrape time (registered later, or never).
 */
export const metrics = fp<{ token: string | null }>(
  async (app, { token }) => {
    if (!token) {
      app.decorate('metrics', null);
      return;
    }
    const metrics = new Metrics(app.db, await import('prom-client'), () => app.responseCache ?? null);
    app.decorate('metrics', metrics);
    app.jobs.onSettled((kind, outcome) => metrics.jobRuns.inc({ kind, outcome }));

    // A callback hook (no promise per request); labels are the route pattern, not the URL.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.record(request, reply.statusCode, reply.elapsedTime);
      done();
    });

    // Hashing both sides gives equal lengths, so the comparison takes the same time whatever is sent.
    const expected = digest(token);
    app.get(
      '/metrics',
      { config: { public: true, rateLimit: false }, schema: { hide: true } },
      async (request, reply) => {
        const header = request.headers.authorization;
        const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
        if (!match) throw unauthorized('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
        if (!timingSafeEqual(digest(match[1] as string), expected)) throw forbidden('wrong metrics token');
        const text = await metrics.registry.metrics();
        return reply.type(metrics.registry.contentType).send(text);
      },
    );
  },
  { name: 'bindery-metrics', decorators: { fastify: ['db', 'jobs'] } },
);
