/**
 * Rate limits through HTTP: per token, per client address without a (valid) token, the headers of
 * every counted response, 429 with the envelope, exempt probes, and the Redis store shared by two
 * app instances. The Redis part needs a server (TEST_REDIS_URL, default redis://127.0.0.1:6379):
 * skipped when none answers, a failure when CI=true.
 */
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rateLimit } from '../../src/http/rate-limit.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';

const LIMIT = 3;

function expectHeaders(headers: Record<string, unknown>, remaining: number) {
  expect(headers['x-ratelimit-limit']).toBe(String(LIMIT));
  expect(headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(headers['ratelimit-limit']).toBe(String(LIMIT));
  expect(headers['ratelimit-remaining']).toBe(String(remaining));
  expect(headers['ratelimit-policy']).toBe(`${LIMIT};w=60`);
  const resetIn = Number(headers['ratelimit-reset']);
  expect(resetIn).toBeGreaterThan(0);
  expect(resetIn).toBeLessThanOrEqual(60);
  // GitBook's X-RateLimit-Reset is the moment of the reset, in UTC epoch seconds.
  const resetAt = Number(headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  expect(resetAt).toBeGreaterThan(now);
  expect(resetAt).toBeLessThanOrEqual(Math.ceil(now) + 61);
}

/** A request from another client address (inject's simulated socket). */
async function from(app: App, address: string, url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, remoteAddress: address, headers });
}

describe('rate limits (in-process store)', () => {
  let h: Harness;
  beforeAll(async () => {
    // inject's own address is 127.0.0.1: as a trusted proxy, its X-Forwarded-For names the client.
    h = await createHarness({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1' } });
  }, 120_000);
  afterAll(async () => h.close());

  it('counts per token, with both header families, then 429 with the envelope and Retry-After', async () => {
    const u = await h.user();
    for (let i = 1; i <= LIMIT; i++) {
      const res = await u.client.get('/v1/user');
      expect(res.status).toBe(200);
      expectHeaders(res.headers, LIMIT - i);
    }
    const over = await u.client.get('/v1/user');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: { code: 429, message: expect.stringMatching(/rate limit exceeded/i) } });
    expectHeaders(over.headers, 0);
    expect(Number(over.headers['retry-after'])).toBe(Number(over.headers['ratelimit-reset']));

    // Another token of the same user, and another user, have budgets of their own.
    const other = await h.user();
    const res = await other.client.get('/v1/user');
    expect(res.status).toBe(200);
    expectHeaders(res.headers, LIMIT - 1);
  });

  it('refuses before doing the work: an over-limit write changes nothing', async () => {
    const org = await h.org();
    const client = org.admin.client;
    await client.get('/v1/user');
    await client.get('/v1/user');
    expect((await client.patch(`/v1/orgs/${org.id}`, { title: 'Renamed once' })).status).toBe(200);
    const refused = await client.patch(`/v1/orgs/${org.id}`, { title: 'Renamed twice' });
    expect(refused.status).toBe(429);
    const row = await h.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Renamed once');
  });

  it('counts requests without a token by client address, 401s and unknown paths included', async () => {
    const address = '203.0.113.7';
    const first = await from(h.app, address, '/v1/user');
    expect(first.statusCode).toBe(401);
    expectHeaders(first.headers, LIMIT - 1);
    const second = await from(h.app, address, '/v1/no-such-thing');
    expect(second.statusCode).toBe(404);
    expectHeaders(second.headers, LIMIT - 2);
    expect((await from(h.app, address, '/v1/user')).statusCode).toBe(401);
    const over = await from(h.app, address, '/v1/user');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: { code: 429, message: expect.any(String) } });
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.headers['www-authenticate']).toBeUndefined();
    // Another address is not affected.
    expect((await from(h.app, '203.0.113.8', '/v1/user')).statusCode).toBe(401);
  });

  it('counts invalid tokens against the address, so trying tokens is limited', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < LIMIT; i++) {
      const res = await from(h.app, address, '/v1/user', { authorization: `Bearer bnd_guess${i}` });
      expect(res.statusCode).toBe(401);
    }
    const over = await from(h.app, address, '/v1/user', { authorization: 'Bearer bnd_guess-again' });
    expect(over.statusCode).toBe(429);
    // A valid token from the same address is counted by its token, not the address.
    const u = await h.user();
    const res = await from(h.app, address, '/v1/user', { authorization: `Bearer ${u.token}` });
    expect(res.statusCode).toBe(200);
    expectHeaders(res.headers, LIMIT - 1);
  });

  it('never limits or counts the health checks', async () => {
    const address = '192.0.2.55';
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await from(h.app, address, i % 2 ? '/healthz' : '/readyz');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const res = await from(h.app, address, '/v1/user');
    expectHeaders(res.headers, LIMIT - 1);
  });

  it('behind a trusted proxy, the forwarded client address is the one counted', async () => {
    const forwarded = (client: string) =>
      h.app.inject({ method: 'GET', url: '/v1/user', headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < LIMIT; i++) expect((await forwarded('198.51.100.1')).statusCode).toBe(401);
    expect((await forwarded('198.51.100.1')).statusCode).toBe(429);
    expect((await forwarded('198.51.100.2')).statusCode).toBe(401);
    // An untrusted peer's X-Forwarded-For is ignored: it cannot pick a fresh address per request.
    for (let i = 0; i < LIMIT; i++) {
      const res = await from(h.app, '192.0.2.80', '/v1/user', { 'x-forwarded-for': `198.51.100.${100 + i}` });
      expect(res.statusCode).toBe(401);
    }
    expect((await from(h.app, '192.0.2.80', '/v1/user', { 'x-forwarded-for': '198.51.100.200' })).statusCode).toBe(429);
  });
});

/** The limiter alone on a bare Fastify app (building the whole app is slow): every request anonymous. */
async function bareApp(env: Record<string, string>) {
  const app = Fastify();
  app.decorateRequest('auth', null);
  await app.register(rateLimit, { config: loadConfig(env) });
  app.get('/ping', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('rate limit configuration', () => {
  it('RATE_LIMIT_PER_MINUTE=0 turns limits (and their headers) off', async () => {
    const app = await bareApp({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({ method: 'GET', url: '/ping' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });

  it('validates the variables', () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(600);
    expect(loadConfig({}).redisUrl).toBeNull();
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await redisReachable();
if (!redisUp) {
  if (process.env.CI === 'true') throw new Error(`Redis expected at ${REDIS_URL} (CI=true) but not reachable`);
  console.log(`Redis not reachable at ${REDIS_URL}: the Redis rate-limit tests are skipped`);
}

describe.runIf(redisUp)('rate limits (Redis store)', () => {
  let h: Harness;
  let second: App;
  let redis: Redis;
  beforeAll(async () => {
    h = await createHarness({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL } });
    // A second process: another app on the same database and the same Redis.
    second = await buildApp({ config: h.app.config, db: h.db, migrate: false, logger: false });
    await second.ready();
    redis = new Redis(REDIS_URL);
  }, 180_000);
  afterAll(async () => {
    redis?.disconnect();
    await second?.close();
    await h?.close();
  });

  it('two app instances see one count per token', async () => {
    const u = await h.user();
    const one = u.client;
    const two = new Client(second, u.token);
    expectHeaders((await one.get('/v1/user')).headers, LIMIT - 1);
    expectHeaders((await two.get('/v1/user')).headers, LIMIT - 2);
    expectHeaders((await one.get('/v1/user')).headers, 0);
    const over = await two.get('/v1/user');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe(429);
    expect((await one.get('/v1/user')).status).toBe(429);
  });

  it('keys the count by the token id, never the secret', async () => {
    const u = await h.user();
    await u.client.get('/v1/user');
    const tokenId = (
      await h.db.selectFrom('api_tokens').select('id').where('user_id', '=', u.user.id).executeTakeFirstOrThrow()
    ).id;
    const keys = await redis.keys('bindery:rate-limit:*');
    expect(keys).toContain(`bindery:rate-limit:t:${tokenId}`);
    const secret = u.token.replace(/^bnd_/, '');
    expect(keys.some((k) => k.includes(secret))).toBe(false);
    const ttl = await redis.pttl(`bindery:rate-limit:t:${tokenId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('serves requests without a limit (no headers) when Redis does not answer', async () => {
    const app = await bareApp({ RATE_LIMIT_PER_MINUTE: '1', REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ method: 'GET', url: '/ping' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });
});
