/**
 * The pages for people outside the API: the landing page at `/`, and the API reference at /docs
 * (Redoc's standalone bundle, served from its package). Over HTTP: the page, its script and the
 * document it draws. In a real browser: the reference draws the whole document, every operation,
 * and no request leaves loopback.
 */
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { browserMissing, collectConsoleErrors, launchBrowser } from '../helpers/browser.js';

/** A free loopback port: the reference's "servers" entry (PUBLIC_URL) must be where the browser loads it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let h: Harness;
let port: number;
beforeAll(async () => {
  port = await freePort();
  h = await createHarness({ publicUrl: `http://127.0.0.1:${port}` });
});
afterAll(async () => h.close());

describe('GET /', () => {
  it('answers a small HTML page linking to the API reference, the OpenAPI document and the docs', async () => {
    const res = await h.anonymous.get('/');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(res.body).toContain('href="/docs"');
    expect(res.body).toContain('href="/v1/openapi.json"');
    expect(res.body).toContain('docs/guide/');
  });

  it('writes its links under the path of PUBLIC_URL', async () => {
    const prefixed = await createHarness({ publicUrl: 'https://example.test/bindery' });
    try {
      const res = await prefixed.anonymous.get('/');
      expect(res.body).toContain('href="/bindery/docs"');
      const docs = await prefixed.anonymous.get('/docs');
      expect(docs.body).toContain('src="/bindery/docs/redoc.standalone.js"');
    } finally {
      await prefixed.close();
    }
  });
});

describe('GET /docs over HTTP', () => {
  it('serves the page with a policy that lets it load nothing from elsewhere', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await h.anonymous.get(url);
      expect(page.status).toBe(200);
      expect(String(page.headers['content-type'])).toContain('text/html');
      expect(page.body).toContain('<title>Bindery API reference</title>');
      expect(page.body).toContain('<redoc spec-url="/docs/json">');
      expect(page.body).toContain('<script src="/docs/redoc.standalone.js">');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
    }
  });

  it('serves the Redoc bundle from its package, with its one outside URL replaced', async () => {
    const script = await h.anonymous.get('/docs/redoc.standalone.js');
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toContain('javascript');
    expect(script.body.length).toBeGreaterThan(500_000);
    expect(script.body).toContain('Redoc');
    expect(script.body).not.toContain('cdn.redoc.ly');
  });

  it('serves the document the page draws, the same as /v1/openapi.json', async () => {
    const fromDocs = await h.anonymous.get('/docs/json');
    const fromApi = await h.anonymous.get('/v1/openapi.json');
    expect(fromDocs.status).toBe(200);
    expect(fromDocs.body.paths['/v1/user']).toBeDefined();
    expect(fromDocs.body.servers).toEqual([{ url: `http://127.0.0.1:${port}` }]);
    expect(fromDocs.body.paths).toEqual(fromApi.body.paths);
  });
});

describe.skipIf(browserMissing)('GET /docs in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    const launched = await launchBrowser();
    if (!launched) throw new Error('launchBrowser returned null although a browser is there');
    browser = launched;
    await h.app.listen({ port, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => browser?.close());

  it('draws every operation of the document, and no request leaves loopback', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectConsoleErrors(page);
    const origin = `http://127.0.0.1:${port}`;
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      // blob: is the worker Redoc builds its search index in; data: the logo it no longer fetches.
      if (!url.startsWith(`${origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
    });
    await page.goto(`${origin}/docs`);

    // An operation's heading; the whole document takes a few seconds on an idle machine, far longer on a busy one.
    const heading = page.locator('h2:text-is("getAuthenticatedUser")');
    await heading.waitFor({ state: 'visible', timeout: 150_000 });
    await expect(page.title()).resolves.toBe('Bindery API reference');
    await expect(page.getByRole('heading', { name: /^Bindery API/, level: 1 }).count()).resolves.toBe(1);

    // Every documented operation is drawn (the reference renders the whole document, not a part).
    const documented = Object.values((await h.anonymous.get('/v1/openapi.json')).body.paths as object).reduce(
      (n: number, item: object) => n + Object.keys(item).length,
      0,
    );
    expect(await page.locator('[data-section-id^="operation/"]').count()).toBe(documented);

    // Its search (built in a worker) finds an operation by name.
    await page.getByRole('textbox', { name: 'Search' }).fill('getAuthenticatedUser');
    const results = page.locator('[data-role="search:results"] [role="menuitem"]');
    await results.first().waitFor({ timeout: 60_000 });
    expect(await results.first().getAttribute('aria-label')).toBe('getAuthenticatedUser');

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
