/** `GET /metrics`: served only with METRICS_TOKEN, only to that token, counters that move. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/database.js';
import { enqueue } from '../../src/jobs/index.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type ModelServer, publish, startModelServer } from '../helpers/ask.js';
import { freshDatabase } from '../helpers/fresh-db.js';

const TOKEN = 'metrics-token-0123456789abcdef';

let off: Harness;
let on: Harness;
beforeAll(async () => {
  off = await createHarness();
  on = await createHarness({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await off?.close();
  await on?.close();
});

async function scrape(app: App): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
}

/** The value of the sample `name{labels}` (labels in the order prom-client writes them); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/).filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN (404 envelope)', async () => {
    const res = await off.anonymous.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const withToken = await off.anonymous.request('GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}` });
    expect(withToken.status).toBe(404);
  });

  it('needs the token: 401 without one, 403 with a wrong one, the envelope both times', async () => {
    const missing = await on.anonymous.get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect(missing.body.error.code).toBe(401);
    const basic = await on.anonymous.request('GET', '/metrics', undefined, { authorization: `Basic ${TOKEN}` });
    expect(basic.status).toBe(401);
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(1), 'short']) {
      const res = await on.anonymous.request('GET', '/metrics', undefined, { authorization: `Bearer ${wrong}` });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { code: 403, message: 'wrong metrics token' } });
    }
    // An API token is not the metrics token.
    const user = await on.user();
    expect((await user.client.get('/metrics')).status).toBe(403);
  });

  it('counts requests by route pattern and status, with latency histograms', async () => {
    const org = await on.org();
    const labels = { method: 'GET', route: '/v1/orgs/:organizationId', status: '200' };
    const before = await scrape(on.app);
    for (let i = 0; i < 3; i++) expect((await org.admin.client.get(`/v1/orgs/${org.id}`)).status).toBe(200);
    expect((await org.admin.client.get('/v1/orgs/nope')).status).toBe(404);
    expect((await on.anonymous.get('/no/such/route')).status).toBe(404);
    const after = await scrape(on.app);

    const counted = (text: string, l: Record<string, string>) => sample(text, 'bindery_http_requests_total', l);
    expect(counted(after, labels) - counted(before, labels)).toBe(3);
    const notFound = { ...labels, status: '404' };
    expect(counted(after, notFound) - counted(before, notFound)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(counted(after, unmatched) - counted(before, unmatched)).toBe(1);
    const histogram = (text: string) => sample(text, 'bindery_http_request_duration_seconds_count', labels);
    expect(histogram(after) - histogram(before)).toBe(3);
    expect(sample(after, 'bindery_http_request_duration_seconds_bucket', { le: '+Inf', ...labels })).toBe(
      histogram(after),
    );
    // The pattern, never the raw URL (ids would make a series per resource).
    expect(after).not.toContain(org.id);
    expect(after).not.toContain('/no/such/route');
    expect(after).toContain('# TYPE bindery_http_request_duration_seconds histogram');
  });

  it('reports the database pool, the job queue, the open streams and the process', async () => {
    const text = await scrape(on.app);
    if (inject('databaseUrl')) {
      expect(text).toMatch(/bindery_db_pool_connections\{state="total"\} \d+/);
      expect(text).toMatch(/bindery_db_pool_connections\{state="idle"\} \d+/);
      expect(text).toMatch(/bindery_db_pool_connections\{state="waiting"\} \d+/);
      expect(sample(text, 'bindery_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(sample(text, 'bindery_db_pool_connections', { state: 'total' })).toBe(1);
      expect(sample(text, 'bindery_db_size_bytes')).toBeGreaterThan(0);
    }
    for (const state of ['queued', 'running', 'done', 'failed'])
      expect(text).toContain(`bindery_jobs{state="${state}"}`);
    expect(text).toContain('bindery_sse_streams_open 0');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('GET /metrics: streams and jobs', () => {
  let model: ModelServer;
  let streaming: Harness;
  beforeAll(async () => {
    model = await startModelServer();
    streaming = await createHarness({
      env: { METRICS_TOKEN: TOKEN, AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '30000' },
    });
  });
  afterAll(async () => {
    await streaming?.close();
    await model?.close();
  });

  it('counts the server-sent event streams open', async () => {
    const org = await streaming.org();
    const spaceId = (await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Guide' })).body.id;
    await publish(org.admin.client, spaceId, [
      { title: 'Install', markdown: '## Install the CLI\n\nRun the installer.' },
    ]);
    model.mode = { kind: 'stream', chunks: Array.from({ length: 200 }, (_, i) => `t${i} `), delayMs: 20 };
    await streaming.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = streaming.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/v1/orgs/${org.id}/ask/stream?query=${encodeURIComponent('How do I install the CLI?')}`;
    const open = () =>
      new Promise<http.ClientRequest>((resolve, reject) => {
        const req = http.get(url, { headers: { authorization: `Bearer ${org.admin.token}` } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => resolve(req));
        });
        req.on('error', (error) => {
          if (!req.destroyed) reject(error);
        });
      });
    const streams = [await open(), await open()];
    expect(sample(await scrape(streaming.app), 'bindery_sse_streams_open')).toBe(2);
    streams[0]?.destroy();
    await expect.poll(async () => sample(await scrape(streaming.app), 'bindery_sse_streams_open')).toBe(1);
    streams[1]?.destroy();
    await expect.poll(async () => sample(await scrape(streaming.app), 'bindery_sse_streams_open')).toBe(0);
    // A stream is a request too, counted when it ends.
    const streamed = { method: 'GET', route: '/v1/orgs/:organizationId/ask/stream', status: '200' };
    await expect.poll(async () => sample(await scrape(streaming.app), 'bindery_http_requests_total', streamed)).toBe(2);
  });

  it('reports the job queue by state and counts job failures', async () => {
    // A database of its own: this app runs a worker, which must not take other test files' jobs.
    const fresh = await freshDatabase('metrics');
    const db = createDb(fresh.url);
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', METRICS_TOKEN: TOKEN, JOB_POLL_MS: '50' }),
      databaseUrl: fresh.url,
      jobConcurrency: 1,
    };
    const app = await buildApp({ config, db, logger: false });
    try {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      app.jobs.register('test.fails', async () => {
        throw new Error('boom');
      });
      app.jobs.register('test.waits', async () => gate);
      await app.ready();
      // Queued in the future: stays queued.
      await enqueue(db, 'test.later', {}, { runAt: new Date(Date.now() + 3_600_000) });
      await enqueue(db, 'test.waits', {});
      app.jobs.wake();
      await expect.poll(async () => sample(await scrape(app), 'bindery_jobs', { state: 'running' })).toBe(1);
      const text = await scrape(app);
      expect(sample(text, 'bindery_jobs', { state: 'queued' })).toBe(1);
      expect(sample(text, 'bindery_job_runs_total', { kind: 'test.fails', outcome: 'failed' })).toBe(0);

      await enqueue(db, 'test.fails', {});
      await enqueue(db, 'test.fails', {});
      release();
      app.jobs.wake();
      await expect
        .poll(async () =>
          sample(await scrape(app), 'bindery_job_runs_total', { kind: 'test.fails', outcome: 'failed' }),
        )
        .toBe(2);
      const done = await scrape(app);
      expect(sample(done, 'bindery_job_runs_total', { kind: 'test.waits', outcome: 'done' })).toBe(1);
      expect(sample(done, 'bindery_jobs', { state: 'failed' })).toBe(2);
      expect(sample(done, 'bindery_jobs', { state: 'done' })).toBe(1);
      expect(sample(done, 'bindery_jobs', { state: 'running' })).toBe(0);
    } finally {
      await app.close();
      await db.destroy();
      await fresh.drop();
    }
  });
});
