/**
 * Opening a space in the web app (`npm run bench:app`): a space of 200 pages (seeded through the
 * API), opened in headless chromium (playwright-core, the Debian chromium the browser tests use) by
 * a signed-in member, from navigation start to the moment both the page tree (all 200 links) and the
 * first page's text are on screen, measured inside the page (`performance.now()`, which counts from
 * navigation start) by an observer installed before the app's scripts run.
 *
 * - Cold: a fresh browser context per open (empty cache; the session cookie carried over), as a
 *   first visit is. Warm: the same context again, the app's hashed files cached (immutable).
 * - p50 and p95 of each, against the goal of 1 s.
 * - The first screen's JavaScript: every script the cold open loaded, gzipped (the server sends
 *   them uncompressed on loopback; a proxy in front of it compresses), against the goal of 250 KB.
 *
 * The server and the browser share this machine; SQLite in memory. `BENCH_OPENS` (default 20) opens
 * of each kind, after two untimed.
 */
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { createOrganization } from '../src/api/organizations/repo.js';
import { findOrCreateUser } from '../src/api/users/repo.js';
import { type App, buildApp } from '../src/app.js';
import { hashPassword, writePasswordHash } from '../src/auth/passwords.js';
import { loadConfig } from '../src/config.js';
import { createToken } from '../src/core/tokens.js';
import { ensureAppBuilt } from '../src/web/build.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { benchEditor } from './app-editor.js';

const PAGES = 200;
const OPENS = Number(process.env.BENCH_OPENS ?? 20);
const GOAL_MS = 1000;
const GOAL_JS_KB = 250;
const EMAIL = 'bench-app@bindery.test';
const PASSWORD = 'bench app password';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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

/** A space of PAGES pages, merged; returns its id and a token of its owner. */
async function seed(app: App): Promise<{ spaceId: string; token: string }> {
  const user = await findOrCreateUser(app.db, EMAIL, 'Bench');
  await writePasswordHash(app.db, user.id, await hashPassword(PASSWORD));
  const org = await createOrganization(app.db, { title: 'Bench' }, user.id);
  const { token } = await createToken(app.db, user.id);
  const space = await call(app, token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guide' });
  const cr = await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  for (let start = 0; start < PAGES; start += 50) {
    const changes = Array.from({ length: Math.min(50, PAGES - start) }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${start + i}`,
      document: {
        markdown: `Page ${start + i} of the guide.\n\n## Configure\n\n\`\`\`ts\nconst port = ${8000 + start + i};\n\`\`\`\n\n- build\n- ship`,
      },
    }));
    await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes });
  }
  await call(app, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  return { spaceId: space.id, token };
}

/**
 * Installed before the app's scripts: records `performance.now()` (ms since navigation start) the
 * first time the page tree holds every page and the first page's text is there.
 */
const OBSERVER = `(() => {
  const done = () => {
    const tree = document.querySelector('nav.page-tree');
    if (!tree || tree.querySelectorAll('a').length < ${PAGES}) return false;
    const article = document.querySelector('main article');
    return !!article && article.textContent.includes('Page 0 of the guide.');
  };
  const observer = new MutationObserver(() => {
    if (window.__benchVisible === undefined && done()) {
      window.__benchVisible = performance.now();
      observer.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true, characterData: true }));
})();`;

/** Where the time of an open goes: when each step's response had arrived (ms since navigation start). */
const STEPS: Array<[string, RegExp]> = [
  ['app script', /\/app\/assets\/.*\.js$/],
  ['GET /auth/status', /\/auth\/status$/],
  ['GET /v1/spaces/{id}/content (tree)', /\/v1\/spaces\/[^/]+\/content$/],
  ['GET …/content/page/{id} (first page)', /\/content\/page\/[^/]+$/],
];

async function open(
  context: BrowserContext,
  url: string,
  scripts?: Map<string, Buffer>,
  steps?: Map<string, number[]>,
): Promise<number> {
  const page = await context.newPage();
  if (scripts) {
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script' && response.ok()) {
        scripts.set(response.url(), await response.body());
      }
    });
  }
  await page.goto(url);
  await page.waitForFunction(() => (window as { __benchVisible?: number }).__benchVisible !== undefined, null, {
    timeout: 30_000,
  });
  const ms = await page.evaluate(() => (window as unknown as { __benchVisible: number }).__benchVisible);
  if (steps) {
    const entries = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => [e.name, (e as PerformanceResourceTiming).responseEnd]),
    );
    for (const [label, pattern] of STEPS) {
      const entry = entries.find(([name]) => pattern.test(new URL(String(name)).pathname));
      if (entry) steps.set(label, [...(steps.get(label) ?? []), Number(entry[1])]);
    }
  }
  await page.close();
  return ms;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0;
};

function row(label: string, times: number[]): string {
  const p50 = percentile(times, 0.5);
  const p95 = percentile(times, 0.95);
  return `| ${label} | ${times.length} | ${p50.toFixed(0)} | ${p95.toFixed(0)} | ${(p95 / GOAL_MS).toFixed(2)} |`;
}

export async function benchApp(): Promise<void> {
  // Always a fresh production build: what the server sends is what is measured.
  if (!(await ensureAppBuilt((message) => console.log(message), { force: true }))) throw new Error('no app build');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    PUBLIC_URL: base,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const app = await buildApp({ config });
  let browser: Browser | null = null;
  try {
    const { spaceId, token } = await seed(app);
    await app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    if (!browser) throw new Error('no chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
    const signIn = await browser.newContext();
    const login = await signIn.request.post(`${base}/auth/login`, { data: { email: EMAIL, password: PASSWORD } });
    if (!login.ok()) throw new Error(`sign-in: ${login.status()} ${await login.text()}`);
    const session = await signIn.storageState();
    await signIn.close();
    const url = `${base}/s/${spaceId}`;

    const fresh = async () => {
      const context = await browser?.newContext({ storageState: session });
      if (!context) throw new Error('no browser');
      await context.addInitScript(OBSERVER);
      return context;
    };
    const cold: number[] = [];
    const scripts = new Map<string, Buffer>();
    const steps = new Map<string, number[]>();
    // `BENCH_PART=editor`: the editor's figures only (the space opened once, for its scripts).
    const spaceOpens = process.env.BENCH_PART === 'editor' ? -1 : OPENS;
    for (let i = 0; i < spaceOpens + 2; i++) {
      const context = await fresh();
      const ms = await open(context, url, i === 0 ? scripts : undefined, i >= 2 ? steps : undefined);
      if (i >= 2) cold.push(ms);
      await context.close();
    }
    const warm: number[] = [];
    const context = await fresh();
    for (let i = 0; i < spaceOpens + 2; i++) {
      const ms = await open(context, url);
      if (i >= 2) warm.push(ms);
    }
    await context.close();

    const files = [...scripts.entries()].map(([name, body]) => ({
      name: new URL(name).pathname.split('/').pop() ?? name,
      raw: body.length,
      gzip: gzipSync(body).length,
    }));
    const gzipKb = files.reduce((sum, f) => sum + f.gzip, 0) / 1024;
    const rawKb = files.reduce((sum, f) => sum + f.raw, 0) / 1024;

    if (spaceOpens > 0) {
      console.log(`\n== web app: opening a ${PAGES}-page space (load average ${loadavg()[0]?.toFixed(1)}) ==`);
      console.log(
        '| open (navigation start → page tree and first page visible) | n | p50 ms | p95 ms | p95 ÷ 1 s goal |',
      );
      console.log('|---|---|---|---|---|');
      console.log(row('cold (new browser context, empty cache)', cold));
      console.log(row('warm (same context, app files cached)', warm));
      console.log('\n| cold open: response arrived (p50 ms since navigation start) | ms |');
      console.log('|---|---|');
      for (const [label] of STEPS) console.log(`| ${label} | ${percentile(steps.get(label) ?? [], 0.5).toFixed(0)} |`);
      console.log(`| page tree and first page visible | ${percentile(cold, 0.5).toFixed(0)} |`);
      console.log('\n| first screen JavaScript | files | raw KB | gzip KB | ÷ 250 KB goal |');
      console.log('|---|---|---|---|---|');
      console.log(
        `| ${files.map((f) => f.name).join(', ')} | ${files.length} | ${rawKb.toFixed(1)} | ${gzipKb.toFixed(1)} | ${(gzipKb / GOAL_JS_KB).toFixed(2)} |`,
      );
    }
    const lines = await benchEditor({
      app,
      call: (method, path, body) => call(app, token, method, path, body),
      browser,
      session,
      base,
      spaceId,
      opens: OPENS,
      firstScreen: new Set(scripts.keys()),
    });
    for (const line of lines) console.log(line);
  } finally {
    await browser?.close();
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchApp();
}
