/**
 * The response cache's front door (http/cache-front.ts) through real HTTP: a kept answer is served
 * before Fastify (whose hooks then never see the request) with the status, bytes and
 * headers Fastify gave it, the same log line, metrics and rate-limit counts; what it cannot answer
 * reaches Fastify untouched. (The other tests reach the app through `inject`, which does not pass
 * through the HTTP server and so never meets the front door.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../src/core/tokens.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

const METRICS_TOKEN = 'metrics-token-for-the-front-door';

interface Served {
  h: Harness;
  base: string;
  /** The URLs of the requests Fastify answered (its `onResponse` hook), in order. */
  seen: string[];
  /** The request log's lines, parsed. */
  lines: Record<string, any>[];
}

// A database of this file's own, and one app on it at a time: on PostgreSQL, another app's writes
// reach this one as changes made elsewhere, which empty its caches (the token cache, shared by the
// apps of one process, included), and the hits these tests expect would come and go.
let database: FreshDatabase;
beforeAll(async () => {
  database = await freshDatabase('cache-front');
});
afterAll(async () => {
  await database?.drop();
});

async function serve(env: Record<string, string> = {}): Promise<Served> {
  const seen: string[] = [];
  const lines: Record<string, any>[] = [];
  const logStream = {
    write(text: string) {
      for (const line of text.split('\n')) if (line) lines.push(JSON.parse(line));
    },
  };
  const h = await createHarness({
    ownDatabase: database.url,
    env: { LOG_LEVEL: 'info', ...env },
    logStream,
    beforeReady: (app) =>
      app.addHook('onResponse', (request, _reply, done) => {
        seen.push(request.url);
        done();
      }),
  });
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  return { h, base, seen, lines };
}

async function get(served: Served, token: string, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${served.base}${url}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const body = await res.text();
  // The request log line is written in a batch once the turn's I/O is done.
  await new Promise((resolve) => setImmediate(resolve));
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

/** The request's log line, by its request id. */
function lineOf(served: Served, requestId: string | undefined) {
  const found = served.lines.filter((line) => line.reqId === requestId && line.msg === 'request completed');
  expect(found).toHaveLength(1);
  return found[0] as Record<string, any>;
}

describe('the response cache front door', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  }, 120_000);
  afterAll(async () => s?.h.close());

  it('answers a kept GET before Fastify, with the status, bytes, headers and log line Fastify gave', async () => {
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    const first = await get(s, org.admin.token, url);
    expect(first.status).toBe(200);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);

    const second = await get(s, org.admin.token, url);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1); // Fastify never saw it
    expect(second.status).toBe(200);
    expect(second.body).toBe(first.body);
    const { 'x-request-id': firstId, date: _d1, ...firstHeaders } = first.headers;
    const { 'x-request-id': secondId, date: _d2, ...secondHeaders } = second.headers;
    expect(secondHeaders).toEqual(firstHeaders);
    expect(secondId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(secondId).not.toBe(firstId);

    // The same line as Fastify's: the same keys in the same order, this request's id and status.
    const fastifyLine = lineOf(s, firstId);
    const frontLine = lineOf(s, secondId);
    expect(Object.keys(frontLine)).toEqual(Object.keys(fastifyLine));
    expect(frontLine.req).toEqual(fastifyLine.req);
    expect(frontLine.req).toEqual({ method: 'GET', url, remoteAddress: '127.0.0.1' });
    expect(frontLine.res).toEqual({ statusCode: 200 });
    expect(frontLine.pid).toBe(fastifyLine.pid);
    expect(typeof frontLine.responseTime).toBe('number');

    // The caller's request id is kept, as Fastify keeps it.
    const named = await get(s, org.admin.token, url, { 'x-request-id': 'caller-chosen-id' });
    expect(named.headers['x-request-id']).toBe('caller-chosen-id');
    expect(lineOf(s, 'caller-chosen-id').res).toEqual({ statusCode: 200 });
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
  });

  it('logs the URL without its credentials, as the line of Fastify does (http/request-log.ts)', async () => {
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}?shareKey=k3y-of-a-share-link&access_token=${org.admin.token}`;
    const first = await get(s, org.admin.token, url);
    const second = await get(s, org.admin.token, url);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1); // the second one was the front door's
    const redacted = `/v1/orgs/${org.id}?shareKey=[REDACTED]&access_token=[REDACTED]`;
    expect(lineOf(s, first.headers['x-request-id']).req.url).toBe(redacted);
    expect(lineOf(s, second.headers['x-request-id']).req.url).toBe(redacted);
    expect(JSON.stringify(s.lines)).not.toContain('k3y-of-a-share-link');
  });

  it('answers If-None-Match as Fastify does: 304 with the ETag when it matches, the answer when not', async () => {
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    const first = await get(s, org.admin.token, url);
    const etag = first.headers.etag as string;
    const fastify304 = await get(s, org.admin.token, `${url}?v=1`, { 'if-none-match': etag });
    expect(fastify304.status).toBe(304); // `?v=1` is not kept yet: Fastify answers
    expect(s.seen).toContain(`${url}?v=1`);

    const front304 = await get(s, org.admin.token, url, { 'if-none-match': `W/"other", ${etag}` });
    expect(front304.status).toBe(304);
    expect(front304.body).toBe('');
    expect(front304.headers.etag).toBe(etag);
    expect(front304.headers['content-type']).toBeUndefined();
    // RFC 9110 8.6: a 304 carries no Content-Length unless it is the 200's.
    expect(front304.headers['content-length']).toBeUndefined();
    expect(fastify304.headers['content-length']).toBeUndefined();
    expect(Object.keys(front304.headers).sort()).toEqual(Object.keys(fastify304.headers).sort());
    expect(lineOf(s, front304.headers['x-request-id']).res).toEqual({ statusCode: 304 });

    const changed = await get(s, org.admin.token, url, { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.body).toBe(first.body);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
  });

  it('leaves to Fastify what it cannot answer: other methods, other URLs, bad tokens, changed data', async () => {
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    const token = org.admin.token;
    await get(s, token, url);
    const seen = () => s.seen.filter((u) => u.startsWith(url)).length;

    const head = await fetch(`${s.base}${url}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(seen()).toBe(2);
    expect((await get(s, token, `${url}?x=1`)).status).toBe(200); // another URL: not kept yet
    expect(seen()).toBe(3);
    expect((await get(s, 'not-a-token', url)).status).toBe(401);
    expect(seen()).toBe(4);
    const other = await s.h.user();
    expect((await get(s, other.token, url)).status).toBe(404); // kept per token: not this one's
    expect(seen()).toBe(5);

    // A change through the API: the next read is Fastify's, and new.
    const renamed = await fetch(`${s.base}${url}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed at the front' }),
    });
    expect(renamed.status).toBe(200);
    const after = await get(s, token, url);
    expect(JSON.parse(after.body).title).toBe('Renamed at the front');
    expect(seen()).toBe(7);
    expect((await get(s, token, url)).body).toBe(after.body);
    expect(seen()).toBe(7);
  });

  it('refuses a revoked token at once, though its answer was kept', async () => {
    const org = await s.h.org();
    const { id, token } = await createToken(s.h.db, org.admin.user.id);
    const url = `/v1/orgs/${org.id}`;
    await get(s, token, url);
    expect((await get(s, token, url)).status).toBe(200);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
    await revokeToken(s.h.db, id);
    const refused = await get(s, token, url);
    expect(refused.status).toBe(401);
    expect(s.seen.filter((u) => u === url)).toHaveLength(2);
  });

  it('leaves a request without Host to Fastify, which refuses it', async () => {
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    await get(s, org.admin.token, url);
    await get(s, org.admin.token, url);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
    // HTTP/1.1 without Host is Fastify's 400, though the answer is kept.
    const net = await import('node:net');
    const { port } = new URL(s.base);
    const raw = await new Promise<string>((resolve) => {
      let data = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET ${url} HTTP/1.1\r\nAuthorization: Bearer ${org.admin.token}\r\nConnection: close\r\n\r\n`);
      });
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(data));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(s.seen.filter((u) => u === url)).toHaveLength(2);
  });
});

describe('the front door with rate limits, metrics and a trusted proxy', () => {
  /** Each test's own app, closed after it. */
  let current: Served | null = null;
  afterEach(async () => {
    await current?.h.close();
    current = null;
  });
  async function serveThisTest(env: Record<string, string>): Promise<Served> {
    current = await serve(env);
    return current;
  }
  it('charges the same count: the rate-limit headers on kept answers, then the 429 Fastify gives', async () => {
    const s = await serveThisTest({ RATE_LIMIT_PER_MINUTE: '3' });
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(s, org.admin.token, url));
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    for (const answer of answers) {
      expect(answer.headers['ratelimit-policy']).toBe('3;w=60');
      expect(Number(answer.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    const over = answers[3] as (typeof answers)[number];
    expect(JSON.parse(over.body)).toEqual({
      error: { code: 429, message: expect.stringMatching(/^API rate limit exceeded \(3 requests per minute\)/) },
    });
    expect(over.headers['retry-after']).toBe(over.headers['ratelimit-reset']);
    expect(over.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(over.headers.etag).toBeUndefined();

    // Fastify's 429 for another token over its limit: the same headers and body shape.
    const other = await s.h.user();
    for (let i = 0; i < 3; i++) await get(s, other.token, '/v1/user');
    const fastify429 = await get(s, other.token, '/v1/user');
    expect(fastify429.status).toBe(429);
    expect(Object.keys(fastify429.headers).sort()).toEqual(Object.keys(over.headers).sort());
    expect(JSON.parse(fastify429.body)).toEqual(JSON.parse(over.body));
  });

  it('counts its answers in the metrics under the route, and logs the proxied client address', async () => {
    const s = await serveThisTest({ METRICS_TOKEN, TRUST_PROXY: '127.0.0.1' });
    const org = await s.h.org();
    const url = `/v1/orgs/${org.id}`;
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const first = await get(s, org.admin.token, url, forwarded);
    const second = await get(s, org.admin.token, url, forwarded);
    expect(s.seen.filter((u) => u === url)).toHaveLength(1);
    expect(lineOf(s, first.headers['x-request-id']).req.remoteAddress).toBe('203.0.113.9');
    expect(lineOf(s, second.headers['x-request-id']).req.remoteAddress).toBe('203.0.113.9');

    const metrics = await fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await metrics.text();
    const counted = text
      .split('\n')
      .find(
        (line) => line.startsWith('bindery_http_requests_total{') && line.includes('route="/v1/orgs/:organizationId"'),
      );
    expect(counted).toMatch(/status="200"\} 2$/);
  });
});
