/**
 * Rate limits: `RATE_LIMIT_PER_MINUTE` requests per minute per token (keyed by the token's id, never
 * the secret), and per client address for requests without a valid token. Counting is done by
 * `@fastify/rate-limit` (its in-process LRU store, or its Redis store with `REDIS_URL`, where one
 * Lua script increments and reads a key atomically, so every process shares one count).
 *
 * The plugin's own per-route hook runs before our authentication is known and writes one family of
 * headers, so it is registered with `global: false` and driven from here instead:
 * - `onRequest`, after authentication: charges the token (or the address on public routes) and
 *   refuses with 429 before any work is done;
 * - `onSend`, for the responses that never reached it (authentication failed, so the caller is
 *   anonymous): charges the address, and turns the response into the 429 when over the limit. So a
 *   client trying tokens is limited by its address like any other unauthenticated caller;
 * - `app.rateLimiter.chargeToken`, for GETs the response cache's front door answers before Fastify
 *   (src/http/cache-front.ts): the same count, headers and 429 body.
 * Every charged response carries GitBook's `X-RateLimit-*` fields (reset as UTC epoch seconds) and
 * the IETF draft's separate `RateLimit-Limit`/`-Remaining`/`-Reset` fields (reset in seconds from
 * now) with `RateLimit-Policy`. Routes with `config: { rateLimit: false }` (health checks, metrics)
 * and the in-process GETs of conditional writes are neither counted nor limited.
 */
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis as RedisClient } from 'ioredis';
import type { Config } from '../config.js';
import { errorBody } from '../lib/errors.js';
import type { Authenticated } from './auth.js';
import { isInternalRequest } from './conditional.js';

const WINDOW_MS = 60_000;
/** How often a failing store (Redis down) is logged, at most. */
const STORE_ERROR_LOG_MS = 60_000;

type Outcome = 'allowed' | 'exceeded' | 'skipped';

/** What counting one request gave: its outcome, and the headers its response carries. */
export interface Charge {
  outcome: Outcome;
  headers: Record<string, string | number>;
}
const SKIPPED: Charge = Object.freeze({ outcome: 'skipped', headers: Object.freeze({}) });
/** The route options of a request counted outside Fastify (no per-route group). */
const NO_ROUTE = { config: {} } as FastifyRequest['routeOptions'];

/** Counts requests answered outside Fastify (src/http/cache-front.ts) against the same limits. */
export interface RateLimiter {
  /** Counts one request of the token's; `ip` is the client's address. */
  chargeToken(tokenId: string, ip: string): Promise<Charge>;
  /** The 429 body for an exceeded charge's headers. */
  exceededBody(headers: Charge['headers']): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts requests answered outside Fastify; null when `RATE_LIMIT_PER_MINUTE=0`. */
    rateLimiter: RateLimiter | null;
  }
}

/** The limiter's key for a request: the token's id when authenticated, else the client's address. */
function keyOf(request: FastifyRequest): string {
  // IPv6 clients usually hold a /64: counting per address would give each of them 2^64 budgets.
  return request.auth ? `t:${request.auth.tokenId}` : `a:${normalizeIP(request.ip)}`;
}

export interface RateLimitOptions {
  config: Pick<Config, 'rateLimitPerMinute' | 'redisUrl'>;
}

/**
 * The limits' hooks (register after authentication: a caller with a valid token is counted by its
 * token, others by address); decorates `app.rateLimiter`.
 */
export const rateLimit = fp<RateLimitOptions>(registerRateLimit, {
  name: 'bindery-rate-limit',
  decorators: { request: ['auth'] },
});

async function registerRateLimit(app: FastifyInstance, { config }: RateLimitOptions): Promise<void> {
  const max = config.rateLimitPerMinute;
  if (max === 0) {
    app.decorate('rateLimiter', null);
    return;
  }
  // ioredis is loaded only when a Redis is configured (it is large).
  const Redis = config.redisUrl ? (await import('ioredis')).Redis : null;
  const redis: RedisClient | null =
    Redis && config.redisUrl
      ? new Redis(config.redisUrl, {
          // A slow or absent Redis must not hold requests: fail the count quickly and serve unlimited.
          connectTimeout: 1_000,
          commandTimeout: 1_000,
          maxRetriesPerRequest: 1,
        })
      : null;
  if (redis) {
    // ioredis reconnects by itself; without a listener its errors would be unhandled events.
    redis.on('error', (error: Error) => logStoreError(error));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    max,
    timeWindow: WINDOW_MS,
    keyGenerator: keyOf,
    nameSpace: 'bindery:rate-limit:',
    cache: 10_000,
    ...(redis ? { redis } : {}),
  });
  const limit = app.createRateLimit();

  let lastStoreError = 0;
  function logStoreError(error: unknown) {
    if (Date.now() - lastStoreError < STORE_ERROR_LOG_MS) return;
    lastStoreError = Date.now();
    app.log.warn({ err: error }, 'rate-limit store failed: requests are served without a limit until it answers');
  }

  const charged = new WeakSet<FastifyRequest>();

  /** Counts one request of `request`'s caller; says what it answers and which headers it carries. */
  async function chargeOf(request: Pick<FastifyRequest, 'auth' | 'ip' | 'routeOptions'>): Promise<Charge> {
    let result: Awaited<ReturnType<typeof limit>>;
    try {
      result = await limit(request as FastifyRequest);
    } catch (error) {
      logStoreError(error);
      return SKIPPED;
    }
    if (result.isAllowed) return SKIPPED;
    const resetIn = result.ttlInSeconds;
    const headers: Charge['headers'] = {
      'x-ratelimit-limit': result.max,
      'x-ratelimit-remaining': result.remaining,
      'x-ratelimit-reset': Math.ceil((Date.now() + result.ttl) / 1000),
      'ratelimit-limit': result.max,
      'ratelimit-remaining': result.remaining,
      'ratelimit-reset': resetIn,
      'ratelimit-policy': `${result.max};w=${WINDOW_MS / 1000}`,
    };
    if (!result.isExceeded) return { outcome: 'allowed', headers };
    headers['retry-after'] = resetIn;
    return { outcome: 'exceeded', headers };
  }

  async function charge(request: FastifyRequest, reply: FastifyReply): Promise<Outcome> {
    charged.add(request);
    const { outcome, headers } = await chargeOf(request);
    reply.headers(headers);
    return outcome;
  }

  const exceededBody = (headers: Charge['headers']) =>
    JSON.stringify(
      errorBody(
        429,
        `API rate limit exceeded (${max} requests per minute). Please try again in ${String(headers['retry-after'])} seconds`,
      ),
    );

  const exempt = (request: FastifyRequest) =>
    request.routeOptions.config?.rateLimit === false || isInternalRequest(request);

  app.addHook('onRequest', async (request, reply) => {
    if (exempt(request)) return;
    if ((await charge(request, reply)) === 'exceeded') {
      await reply
        .code(429)
        .type('application/json; charset=utf-8')
        .send(exceededBody(reply.getHeaders() as Charge['headers']));
      return reply;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (charged.has(request) || exempt(request)) return payload;
    if ((await charge(request, reply)) !== 'exceeded') return payload;
    reply.code(429).type('application/json; charset=utf-8').removeHeader('www-authenticate');
    return exceededBody(reply.getHeaders() as Charge['headers']);
  });

  const limiter: RateLimiter = {
    chargeToken: (tokenId, ip) => chargeOf({ auth: { tokenId } as Authenticated, ip, routeOptions: NO_ROUTE }),
    exceededBody,
  };
  app.decorate('rateLimiter', limiter);
}
