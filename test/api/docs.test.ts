/**
 * The interactive API reference at /docs: its assets have bodies (they once answered 200 with an empty
 * body, the page staying blank), and in a real browser the operations are listed and "Try it out" of
 * GET /v1/user answers with the caller.
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

describe('GET /docs assets', () => {
  it('serve the page, the script and the stylesheet with their bodies and types', async () => {
    const page = await h.anonymous.get('/docs');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(page.body).toContain('/docs/static/swagger-ui-bundle.js');

    const script = await h.anonymous.get('/docs/static/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toContain('javascript');
    expect(script.body.length).toBeGreaterThan(100_000);
    expect(script.body).toContain('SwaggerUIBundle');

    const css = await h.anonymous.get('/docs/static/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(String(css.headers['content-type'])).toContain('text/css');
    expect(css.body.length).toBeGreaterThan(10_000);
    expect(css.body).toContain('.swagger-ui');

    const init = await h.anonymous.get('/docs/static/swagger-initializer.js');
    expect(init.status).toBe(200);
    expect(init.body).toContain("resolveUrl('./json')");
  });

  it('serves the document the page loads, the same as /v1/openapi.json', async () => {
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

  it('lists the operations, and "Try it out" of GET /v1/user answers with the user of the token', async () => {
    const me = await h.user({ name: 'Docs Reader' });
    const page = await browser.newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`http://127.0.0.1:${port}/docs`);

    const operation = page.locator('#operations-users-getAuthenticatedUser');
    // Rendering 100+ operations takes a few seconds on an idle machine and far longer on a busy one.
    await operation.waitFor({ state: 'visible', timeout: 150_000 });
    await expect(page.title()).resolves.toBe('Bindery API reference');
    // Every documented operation is listed (the reference renders the whole document, not a part).
    const documented = Object.values((await h.anonymous.get('/v1/openapi.json')).body.paths as object).reduce(
      (n: number, item: object) => n + Object.keys(item).length,
      0,
    );
    expect(await page.locator('.opblock').count()).toBe(documented);

    // Authorize with the token, as a reader would: the bearer scheme's dialog.
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('#auth-bearer-value').fill(me.token);
    await dialog.getByRole('button', { name: 'Apply credentials' }).first().click();
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table');
    await live.locator('tr.response .response-col_status').first().waitFor({ timeout: 30_000 });
    expect((await live.locator('tr.response .response-col_status').first().textContent())?.trim()).toBe('200');
    const body = await live.locator('tr.response .response-col_description pre').first().textContent();
    const shown = JSON.parse(body ?? '');
    expect(shown).toMatchObject({ object: 'user', id: me.user.id, displayName: 'Docs Reader' });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
