/**
 * Reads answered from memory. A GET route whose config says `cacheable: true` declares that its
 * 200 answer is a function of the stored data, the caller and the URL alone (no clock, no outside
 * service, no header but the token). Such an answer is kept, per access token and URL, with what it
 * depends on: the point it was computed at on the clock of committed changes and the scopes of data
 * it read (src/core/answer-scope.ts: the organizations it authorized in and the caller's
 * memberships). The same request is answered with the same bytes and ETag for as long as no change
 * of those scopes and no global change has committed since (src/db/writes.ts, src/db/write-scope.ts)
 * — here or, once it is known here, in another process (src/http/change-feed.ts). A write in one
 * organization thus leaves the other organizations' answers in memory. Authentication, scope checks
 * and rate limits run on every request as before; only the work of the handler (queries,
 * permissions, presenting, serializing, hashing) is skipped. A request whose token and answer are
 * both in memory is answered before Fastify, by src/http/cache-front.ts; the hooks here answer the
 * others (a token the front door had to leave to the database, for one).
 *
 * Never stale: a write whose scopes are not known for sure counts as global and drops every answer,
 * and an answer whose handler did not say what it read depends on every write. Entries also expire
 * after {@link MAX_AGE_MS}, the bound of the other in-process caches, as a guard.
 * `RESPONSE_CACHE_MB=0` turns it off.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AnswerScope, collectAnswerScope } from '../core/answer-scope.js';
import type { WriteCounter } from '../db/writes.js';
import { RecencyMap } from '../lib/recency-map.js';
import { CacheDiagnosis, scopeKind } from './cache-diagnosis.js';

const MAX_AGE_MS = 10_000;
/** What an entry costs besides its body (key, object, map slot), roughly. */
const ENTRY_OVERHEAD_BYTES = 256;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The 200 answer of this GET depends only on the stored data, the caller and the URL, so it may
     * be served from memory until the data changes (src/http/response-cache.ts).
     */
    cacheable?: boolean;
  }
  interface FastifyInstance {
    /** GET answers kept until the data changes; null when `RESPONSE_CACHE_MB=0`. */
    responseCache: ResponseCache | null;
  }
  interface FastifyRequest {
    /** Set when this request's answer is to be kept: where, since when, and what it read. */
    responseCacheSlot: { key: string; since: number; reads: AnswerScope } | null;
  }
}

interface Entry {
  /** The count of committed changes when the answer began to be computed. */
  since: number;
  /** The scopes of data it depends on; null: every write. */
  dependencies: readonly string[] | null;
  body: Buffer;
  etag: string;
  contentType: string;
  /** The route's pattern (the metrics label of a request answered by src/http/cache-front.ts). */
  route: string;
  expires: number;
  bytes: number;
}

/** The kept answers within a byte budget; the least recently read go first (src/lib/recency-map.ts). */
export class ResponseCache {
  private readonly entries = new RecencyMap<string, Entry>();
  /** Memory the entries take (bodies, keys and an allowance per entry). */
  bytes = 0;
  /** Lookups answered from memory, and lookups that went on to the handler (for /metrics). */
  hits = 0;
  misses = 0;
  /** The last global change the entries have seen; a new one empties the cache. */
  private everything = -1;
  /** Why lookups missed, per route (`RESPONSE_CACHE_DIAGNOSIS=1`); null: not counted. */
  readonly diagnosis: CacheDiagnosis | null;

  constructor(
    readonly maxBytes: number,
    diagnose = false,
  ) {
    this.diagnosis = diagnose ? new CacheDiagnosis() : null;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, changes: WriteCounter, now: number, route = ''): Entry | undefined {
    const entry = this.peek(key, changes, now);
    if (entry === undefined) {
      this.misses++;
      this.diagnosis?.miss(route, key);
    }
    return entry;
  }

  /** As {@link get}, but a miss is not counted (the request goes on to a lookup that counts it). */
  peek(key: string, changes: WriteCounter, now: number): Entry | undefined {
    if (changes.everything !== this.everything) this.reset(changes.everything);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= now || !changes.unchangedSince(entry.since, entry.dependencies)) {
      this.entries.delete(key);
      this.bytes -= entry.bytes;
      this.diagnosis?.bury(key, this.dropCause(entry, changes));
      return undefined;
    }
    this.hits++;
    this.diagnosis?.count(entry.route, 'hit');
    return entry;
  }

  /**
   * Keeps an answer computed since `since` from data of `dependencies`, unless that data has
   * changed since (a write that committed while it was computed).
   */
  set(
    key: string,
    answer: Omit<Entry, 'expires' | 'bytes' | 'since' | 'dependencies'>,
    since: number,
    dependencies: readonly string[] | null,
    changes: WriteCounter,
  ) {
    if (!changes.unchangedSince(since, dependencies)) {
      this.diagnosis?.bury(key, `refused ${scopeKind(changes.changedDependency(since, dependencies))}`);
      return;
    }
    if (changes.everything !== this.everything) this.reset(changes.everything);
    const bytes = answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 4) {
      this.diagnosis?.bury(key, 'not kept');
      return; // one answer must not push out everything else
    }
    this.diagnosis?.kept(key);
    const previous = this.entries.delete(key);
    if (previous) this.bytes -= previous.bytes;
    this.entries.set(key, { ...answer, since, dependencies, expires: Date.now() + MAX_AGE_MS, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) {
      const evicted = this.entries.evict();
      if (evicted === undefined) break;
      this.bytes -= evicted[1].bytes;
      this.diagnosis?.bury(evicted[0], 'evicted');
    }
  }

  /** Why `entry` is no longer served (for the diagnosis): a dependency changed, else its age. */
  private dropCause(entry: Entry, changes: WriteCounter): string {
    if (changes.unchangedSince(entry.since, entry.dependencies)) return 'expired';
    return `dropped ${scopeKind(changes.changedDependency(entry.since, entry.dependencies))}`;
  }

  private reset(everything: number): void {
    if (this.diagnosis && this.everything !== -1) {
      for (const key of this.entries.keys()) this.diagnosis.bury(key, 'dropped global');
    }
    this.entries.clear();
    this.bytes = 0;
    this.everything = everything;
  }
}

function keyOf(request: FastifyRequest, tokenId: string): string {
  return `${tokenId} ${request.url}`;
}

/**
 * The lookup (an `onRequest` hook: after authentication and rate limits) and the keeping of answers
 * (an `onSend` hook: after the ETag's); decorates `app.responseCache`, null when `maxBytes` is 0 or
 * the app has no change feed to say when the data changed.
 */
interface ResponseCacheOptions {
  maxBytes: number;
  /** Count why lookups missed, per route (config.responseCacheDiagnosis). */
  diagnosis: boolean;
}

export const responseCache = fp<ResponseCacheOptions>(registerResponseCache, {
  name: 'bindery-response-cache',
  dependencies: ['bindery-change-feed', 'bindery-auth', 'bindery-rate-limit', 'bindery-conditional'],
});

async function registerResponseCache(
  app: FastifyInstance,
  { maxBytes, diagnosis }: ResponseCacheOptions,
): Promise<void> {
  const feed = app.changeFeed;
  if (feed === null || maxBytes <= 0) {
    app.decorate('responseCache', null);
    return;
  }
  const cache = new ResponseCache(maxBytes, diagnosis);
  app.decorate('responseCache', cache);
  app.decorateRequest('responseCacheSlot', null);

  // Callback hooks: a hit is answered without a promise or a turn of the event loop.
  app.addHook('onRequest', (request, reply, done) => {
    const auth = request.auth;
    if (request.method !== 'GET' || auth === null || request.routeOptions.config.cacheable !== true) {
      if (request.method === 'GET') cache.diagnosis?.count(request.routeOptions.url ?? '', 'uncacheable');
      return done();
    }
    const changes = feed.changes();
    if (changes === undefined) {
      cache.misses++; // changes elsewhere cannot be known now: nothing is served from memory
      cache.diagnosis?.count(request.routeOptions.url ?? '', 'no feed');
      return done();
    }
    const key = keyOf(request, auth.tokenId);
    const entry = cache.get(key, changes, Date.now(), request.routeOptions.url);
    if (entry === undefined) {
      const reads = new AnswerScope(auth.user.id);
      request.responseCacheSlot = { key, since: changes.committed, reads };
      // The handler runs in this context: what it authorizes in is collected (core/answer-scope.ts).
      return collectAnswerScope(reads, done);
    }
    // Replying from onRequest skips parsing, validation and the handler; onSend hooks still run
    // (If-None-Match against the kept ETag, the request id) and the request is logged as usual.
    reply.header('content-type', entry.contentType).header('etag', entry.etag).send(entry.body);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const slot = request.responseCacheSlot;
    if (slot === null) return done(null, payload);
    request.responseCacheSlot = null;
    const etag = reply.getHeader('etag');
    const contentType = reply.getHeader('content-type');
    const changes = feed.changes();
    if (
      reply.statusCode === 200 &&
      changes !== undefined &&
      (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
      typeof etag === 'string' &&
      typeof contentType === 'string' &&
      contentType.includes('json')
    ) {
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const route = request.routeOptions.url ?? request.url;
      cache.set(slot.key, { body, etag, contentType, route }, slot.since, slot.reads.dependencies(), changes);
    } else cache.diagnosis?.bury(slot.key, 'not kept');
    done(null, payload);
  });
}
