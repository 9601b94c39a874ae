/**
 * Published-site pages (`npm run bench:published`, and the last part of `npm run bench`): a site
 * whose space has 200 pages (headings, code, a hint, a table, links), built through the API.
 *
 * - Uncached render: the first request of each of the 200 pages (every one renders: the render
 *   cache is keyed by page), after one warm-up page that loads the highlighter; p50 and p99 of the
 *   server-side time (`app.inject`, no network).
 * - Cached page: one page loaded with autocannon over loopback next to two bare Fastify routes (the
 *   ceilings): a JSON route, and one sending the same page's bytes; all in this process, one after
 *   the other, so they share the same conditions.
 *
 * SQLite in memory by default; `DATABASE_URL=postgres://…` runs on a fresh PostgreSQL database.
 * `BENCH_DURATION` (seconds, default 5) and `BENCH_CONNECTIONS` (default 10) tune the load.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { createOrganization } from '../src/api/organizations/repo.js';
import { findOrCreateUser } from '../src/api/users/repo.js';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createToken } from '../src/core/tokens.js';
import { isPostgresUrl } from '../src/db/database.js';

const PAGES = 200;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PUBLIC_URL = 'http://127.0.0.1';

function page(n: number): string {
  return [
    `Page ${n} of the guide. See [the next page](page-${n + 1}.md) and [the first](page-0.md).`,
    '',
    `## Configure ${n}`,
    '',
    '```ts',
    `const port: number = ${8000 + n};`,
    "console.log('listening on', port);",
    '```',
    '',
    '{% hint style="info" %}',
    `Setting ${n} applies to **every** workspace.`,
    '{% endhint %}',
    '',
    '| Key | Value |',
    '| --- | --- |',
    `| port | ${8000 + n} |`,
    '',
    `## Deploy ${n}`,
    '',
    '- build the image',
    '- push it',
    '- roll it out',
  ].join('\n');
}

async function call(app: App, token: string, method: string, url: string, body?: unknown) {
  const res = await app.inject({
    method: method as 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
}

/** A published site whose one space has PAGES pages; returns the site's address path. */
async function buildSite(app: App): Promise<string> {
  const user = await findOrCreateUser(app.db, 'bench@bindery.test', 'Bench');
  const org = await createOrganization(app.db, { title: 'Bench' }, user.id);
  const { token } = await createToken(app.db, user.id);
  const space = await call(app, token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guide' });
  const cr = await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  for (let start = 0; start < PAGES; start += 50) {
    const changes = Array.from({ length: Math.min(50, PAGES - start) }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${start + i}`,
      document: { markdown: page(start + i) },
    }));
    await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes });
  }
  await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await call(app, token, 'POST', `/v1/orgs/${org.id}/sites`, { title: 'Bench Docs', spaces: [space.id] });
  await call(app, token, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
  const published = await call(app, token, 'GET', `/v1/orgs/${org.id}/sites/${site.id}`);
  return new URL(published.urls.published).pathname;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function load(url: string): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, timeout: 10 });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** A fresh PostgreSQL database for the run (dropped at the end), or in-memory SQLite. */
async function database(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin || !isPostgresUrl(admin)) return { url: ':memory:', drop: async () => {} };
  const name = `bindery_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function benchPublished(): Promise<void> {
  const db = await database();
  const config = loadConfig({ DATABASE_URL: db.url, PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' });
  const app = await buildApp({ config });
  try {
    const base = await buildSite(app);
    const paths = Array.from({ length: PAGES }, (_, n) => `${base}/page-${n}`);
    // Warm-up: the highlighter and its languages load on the first page with code.
    const warm = await app.inject({ method: 'GET', url: paths[0] as string });
    if (warm.statusCode !== 200) throw new Error(`GET ${paths[0]}: ${warm.statusCode}`);
    const times: number[] = [];
    for (const path of paths.slice(1)) {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: path });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode}`);
    }
    times.sort((a, b) => a - b);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const cached = await load(`http://127.0.0.1:${port}${paths[1]}`);
    await app.close();

    // Two ceilings: the bare JSON route, and a bare route sending the same page's bytes (what
    // moving 21 KB of HTML costs by itself, whatever renders it).
    const bare = Fastify({ logger: false });
    const html = warm.body;
    bare.get('/', async () => ({ hello: 'world' }));
    bare.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareAddress = bare.server.address();
    const barePort = typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0;
    const ceiling = await load(`http://127.0.0.1:${barePort}/`);
    const sameBytes = await load(`http://127.0.0.1:${barePort}/page`);
    await bare.close();

    const label = db.url === ':memory:' ? 'SQLite' : 'PostgreSQL';
    console.log(
      `\n== published pages (${label}, ${PAGES}-page space, load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)}) ==`,
    );
    console.log('| row | req/s | vs ceiling | p50 / p99 ms |');
    console.log('|---|---|---|---|');
    console.log(
      `| bare Fastify JSON route (ceiling) | ${ceiling.rps.toFixed(0)} | 100% | ${ceiling.p50} / ${ceiling.p99} |`,
    );
    const kb = (warm.body.length / 1024).toFixed(0);
    console.log(
      `| bare Fastify route sending the same ${kb} KB page | ${sameBytes.rps.toFixed(0)} | ${((100 * sameBytes.rps) / ceiling.rps).toFixed(1)}% | ${sameBytes.p50} / ${sameBytes.p99} |`,
    );
    console.log(
      `| cached page (HTML, ${kb} KB) | ${cached.rps.toFixed(0)} | ${((100 * cached.rps) / ceiling.rps).toFixed(1)}% (${((100 * cached.rps) / sameBytes.rps).toFixed(1)}% of the same-bytes route) | ${cached.p50} / ${cached.p99} |`,
    );
    console.log(
      `| uncached page render (server side, ${times.length} pages) | — | — | ${percentile(times, 0.5).toFixed(1)} / ${percentile(times, 0.99).toFixed(1)} |`,
    );
    if (cached.errors > 0 || ceiling.errors > 0)
      throw new Error(`errors under load: ${cached.errors} / ${ceiling.errors}`);
  } finally {
    await app.close();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPublished();
}
