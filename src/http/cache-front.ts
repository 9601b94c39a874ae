/**
 * The response cache's front door: a GET whose answer is kept (src/http/response-cache.ts) is
 * answered from the HTTP server's request handler, before Fastify builds its request and reply
 * objects and runs its hook chains, which cost about a third of a cached read's CPU (interleaved
 * A/B: 28.6 -> 22.6 µs a request for GET organization). Whatever it is not sure of goes on to
 * Fastify untouched, which answers as before: anything but GET, a request without `Host`, one
 * while closing, a token not in the token cache (or due its `last_used_at` write), a URL with no
 * kept answer for this token that is still current (src/http/response-cache.ts).
 *
 * It answers what Fastify would: the same status and bytes, `content-type`, `etag` (304 on a
 * matching `If-None-Match`), `x-request-id` (the caller's, or a new one), the rate-limit headers
 * and 429 from the same counts, the same request log line and metrics.
 *
 * The door is in Fastify's `serverFactory` ({@link FrontDoor}), which must be given when the app is
 * made; the {@link cacheFrontDoor} plugin opens it once the response cache and what it answers with
 * (rate limits, metrics) are registered. Until then, and when it stays shut, every request goes to
 * Fastify.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { bearerSecret, cachedTokenCheck } from '../core/tokens.js';
import { newId } from '../lib/ids.js';
import type { ChangeFeed } from './change-feed.js';
import { noneMatchHits } from './conditional.js';
import { type TrustProxy, trustFunction } from './proxy.js';
import type { Charge, RateLimiter } from './rate-limit.js';
import type { RequestLine, RequestLog } from './request-log.js';
import type { ResponseCache } from './response-cache.js';

export interface CacheFrontOptions {
  cache: ResponseCache;
  feed: ChangeFeed;
  /** Runs before a lookup, as the change feed's `onRequest` hook does (SQLite polls the feed). */
  poll: (() => void) | null;
  /** Writes the request's log line, as Fastify's request log would. */
  logLine: RequestLine;
  /** Counts the request in the metrics, by route pattern; null when metrics are off. */
  record: ((method: string, route: string, statusCode: number, elapsedMs: number) => void) | null;
  /** Counts the request against the rate limits; null when there are none. */
  limiter: RateLimiter | null;
  /** Which proxies' `X-Forwarded-For` to believe for the client's address: Fastify's `trustProxy`. */
  trustProxy: TrustProxy;
  /** Says whether the server is closing (then Fastify answers 503). */
  closing: () => boolean;
}

/** Answers `req` from the cache, or calls `next` (Fastify) having touched nothing. */
export type CacheFrontHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

/** The HTTP server's request handler with a door before it, shut until {@link open} is called. */
export class FrontDoor {
  private front: CacheFrontHandler | null = null;

  /** Fastify's `serverFactory`: its own HTTP server (lib/server.js), with the door before its handler. */
  readonly serverFactory: ServerFactory = (handler, serverOptions) => {
    const server = http.createServer(serverOptions.http ?? {}, (request, response) => {
      const front = this.front;
      if (front === null) handler(request, response);
      else front(request, response, () => handler(request, response));
    });
    server.keepAliveTimeout = serverOptions.keepAliveTimeout as number;
    server.requestTimeout = serverOptions.requestTimeout as number;
    server.setTimeout(serverOptions.connectionTimeout as number);
    return server;
  };

  open(front: CacheFrontHandler): void {
    this.front = front;
  }
}

export interface CacheFrontDoorOptions {
  /** The door given to Fastify as its `serverFactory`. */
  door: FrontDoor;
  /** The app's log controller: the front door writes the same lines (only when it writes them directly). */
  requestLog: RequestLog;
  /** Fastify's `trustProxy` option, as the app was given it. */
  trustProxy: TrustProxy;
}

/**
 * Opens `door` onto the response cache, when there is one and the request log writes its lines
 * directly (else the front door could not log as Fastify does, and every request goes to Fastify).
 */
export const cacheFrontDoor = fp<CacheFrontDoorOptions>(
  async (app: FastifyInstance, { door, requestLog, trustProxy }) => {
    const cache = app.responseCache;
    const feed = app.changeFeed;
    if (cache === null || feed === null) return;
    const logLine = requestLog.lineWriter(app.log);
    if (logLine === null) return;
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    const metrics = app.metrics;
    door.open(
      cacheFront({
        cache,
        feed,
        poll: feed.pollsOnRequest ? () => feed.poll() : null,
        logLine,
        record: metrics ? (method, route, status, ms) => metrics.recordRoute(method, route, status, ms) : null,
        limiter: app.rateLimiter,
        trustProxy,
        closing: () => closing,
      }),
    );
  },
  {
    name: 'bindery-cache-front',
    dependencies: ['bindery-response-cache', 'bindery-change-feed', 'bindery-rate-limit', 'bindery-metrics'],
  },
);

export function cacheFront(options: CacheFrontOptions): CacheFrontHandler {
  const { cache, feed, poll, logLine, record, limiter, closing } = options;
  const trusted = trustFunction(options.trustProxy);
  const clientAddress = (req: IncomingMessage): string | undefined =>
    trusted === null ? req.socket.remoteAddress : proxyAddr(req, trusted);

  return (req, res, next) => {
    if (req.method !== 'GET') return next();
    const headers = req.headers;
    const authorization = headers.authorization;
    if (authorization === undefined || (headers.host === undefined && req.httpVersion === '1.1')) return next();
    const secret = bearerSecret(authorization);
    if (secret === null || closing()) return next();
    const check = cachedTokenCheck(secret);
    if (check === undefined || !check.ok) return next();
    poll?.();
    const changes = feed.changes();
    if (changes === undefined) return next();
    const url = req.url as string;
    const entry = cache.peek(`${check.token.tokenId} ${url}`, changes, Date.now());
    if (entry === undefined) return next();

    const start = performance.now();
    const supplied = headers['x-request-id'];
    const requestId = typeof supplied === 'string' && supplied !== '' ? supplied : newId(16);
    const answer = (charge: Charge | null) => {
      let status = 200;
      const ifNoneMatch = headers['if-none-match'];
      if (charge?.outcome === 'exceeded' && limiter) {
        status = 429;
        const body = limiter.exceededBody(charge.headers);
        res.writeHead(429, {
          ...charge.headers,
          'content-type': JSON_TYPE,
          'x-request-id': requestId,
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      } else if (ifNoneMatch !== undefined && noneMatchHits(ifNoneMatch, entry.etag)) {
        status = 304;
        res.writeHead(304, { ...charge?.headers, 'x-request-id': requestId, etag: entry.etag });
        res.end();
      } else {
        res.writeHead(200, {
          ...charge?.headers,
          'content-type': entry.contentType,
          'x-request-id': requestId,
          etag: entry.etag,
          'content-length': entry.body.length,
        });
        res.end(entry.body);
      }
      const elapsed = performance.now() - start;
      logLine(requestId, 'GET', url, clientAddress(req), status, elapsed);
      record?.('GET', entry.route, status, elapsed);
    };
    if (limiter === null) return answer(null);
    limiter.chargeToken(check.token.tokenId, clientAddress(req) ?? '').then(answer, (error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  };
}
