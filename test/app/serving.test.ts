/**
 * The web app as the server serves it: index.html at `/` and at every app address the API hands out
 * (so a deep link works on reload), with a strict Content-Security-Policy and the server's path;
 * its hashed files immutable. In a real browser, a person who is not signed in sees the sign-in form.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DIST } from '../../src/web/build.js';
import { createHarness, type Harness } from '../helpers/app.js';
import {
  browserMissing,
  checkAccessibility,
  collectConsoleErrors,
  collectCspViolations,
  launchBrowser,
  listenOnLoopback,
} from '../helpers/browser.js';
import { givePassword, PASSWORD } from '../helpers/sessions.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('serving the app', () => {
  it('answers index.html at / and at every urls.app address, with a strict policy', async () => {
    const world = await h.space();
    const space = await world.admin.client.get(`/v1/spaces/${world.spaceId}`);
    const org = await world.admin.client.get(`/v1/orgs/${world.orgId}`);
    const appPaths = [space.body.urls.app, org.body.urls.app].map((url: string) => new URL(url).pathname);
    const urls = ['/', ...appPaths, `/s/${world.spaceId}/some/page/path`, '/c/abc', '/o/x/sites/y'];
    const nonces = new Set<string>();
    for (const url of urls) {
      const res = await h.anonymous.get(url);
      expect(res.status, url).toBe(200);
      expect(String(res.headers['content-type'])).toContain('text/html');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain('<base href="/app/">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      // Style elements only with this response's nonce (Radix's injected styles carry it), given to the page.
      const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)?.[1];
      expect(nonce, csp).toBeDefined();
      expect(res.body).toContain(`<meta name="bindery-style-nonce" content="${nonce}">`);
      nonces.add(nonce as string);
      expect(res.headers['cache-control']).toBe('no-cache');
      // Nothing inline for scripts: every <script> has a src.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
    expect(nonces.size, 'a fresh nonce per response').toBe(urls.length);
  });

  it('keeps the links a reader without JavaScript needs', async () => {
    const res = await h.anonymous.get('/');
    expect(res.body).toContain('href="/docs"');
    expect(res.body).toContain('href="/v1/openapi.json"');
  });

  it('serves the hashed files as immutable, and 404 for one that is not there', async () => {
    const script = readdirSync(path.join(APP_DIST, 'assets')).find((name) => name.endsWith('.js'));
    expect(script).toBeDefined();
    const res = await h.anonymous.get(`/app/assets/${script}`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('javascript');
    expect(String(res.headers['cache-control'])).toContain('immutable');
    const missing = await h.anonymous.get('/app/assets/nothing-here.js');
    expect(missing.status).toBe(404);
  });

  it('leaves the API, the reference and published sites as they are', async () => {
    expect((await h.anonymous.get('/v1/orgs')).status).toBe(401);
    expect((await h.anonymous.get('/docs')).status).toBe(200);
    expect((await h.anonymous.get('/nothing/here')).status).toBe(404);
  });

  it("announces what the editor's screen fetches first: its chunk, and to a signed-in person its data", async () => {
    const world = await h.space();
    const cr = await world.admin.client.post(`${world.base}/change-requests`, { subject: 'Edits' });
    const inserted = await world.admin.client.post(`${world.base}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.' } }],
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const content = await world.admin.client.get(`${world.base}/change-requests/${cr.body.number}/content`);
    const pageId = content.body.pages[0].id as string;
    await givePassword(h.db, world.admin.user.id);
    const login = await h.anonymous.request('POST', '/auth/login', {
      email: world.admin.user.email,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const get = (url: string, headers: Record<string, string> = {}) =>
      h.anonymous.request<string>('GET', url, undefined, headers);
    const fetched = (html: string) =>
      [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

    const editorUrl = `/s/${world.spaceId}/~/changes/${cr.body.number}/edit/${pageId}`;
    const editor = await get(editorUrl, { cookie });
    const chunk = /<link rel="modulepreload" crossorigin href="\.\/(assets\/EditorScreen-[^"]+\.js)">/.exec(
      editor.body,
    )?.[1];
    expect(chunk, editor.body).toBeDefined();
    expect((await h.anonymous.get(`/app/${chunk}`)).status).toBe(200);
    const crPath = `${world.base}/change-requests/${cr.body.number}`;
    expect(fetched(editor.body)).toEqual([
      '/auth/status',
      world.base,
      crPath,
      `${crPath}/content`,
      `${crPath}/content/page/${pageId}`,
    ]);
    // Each is answered to the person (the app's own requests take these answers).
    for (const url of fetched(editor.body)) expect((await get(url as string, { cookie })).status, url).toBe(200);
    // Before the page is chosen: no page. Another screen: the session check only.
    expect(fetched((await get(`/s/${world.spaceId}/~/changes/${cr.body.number}/edit`, { cookie })).body)).toEqual([
      '/auth/status',
      world.base,
      crPath,
      `${crPath}/content`,
    ]);
    const other = await get(`/s/${world.spaceId}`, { cookie });
    expect(fetched(other.body)).toEqual(['/auth/status']);
    expect(other.body).not.toContain('modulepreload" crossorigin href="./assets/EditorScreen');
    // Nobody signed in (or a session that ended): the chunk only, no request that would be refused.
    const anonymous = await get(editorUrl);
    expect(fetched(anonymous.body)).toEqual([]);
    expect(anonymous.body).toContain(`href="./${chunk}"`);
    expect(fetched((await get(editorUrl, { cookie: 'bindery_session=bs_ended' })).body)).toEqual([]);
  });

  it('writes its base under the path of PUBLIC_URL', async () => {
    const prefixed = await createHarness({ publicUrl: 'https://example.test/bindery' });
    try {
      const res = await prefixed.anonymous.get('/o/abc');
      expect(res.body).toContain('<base href="/bindery/app/">');
      expect(res.body).toContain('<meta name="bindery-base" content="/bindery">');
    } finally {
      await prefixed.close();
    }
  });
});

describe.skipIf(browserMissing)('the app in a browser', () => {
  it('shows the sign-in form to a person who is not signed in, accessible and quiet', async () => {
    const browser = await launchBrowser();
    if (!browser) return;
    try {
      const page = await browser.newPage();
      const errors = collectConsoleErrors(page);
      const csp = await collectCspViolations(page);
      const base = await listenOnLoopback(h.app);
      await page.goto(`${base}/o/some-organization`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.getByLabel('Email').count()).toBe(1);
      expect(await page.getByLabel('Password').count()).toBe(1);
      expect(await checkAccessibility(page)).toEqual([]);
      // The session check answers 401 before sign-in: expected, not an error of the page.
      expect(errors).toEqual([]);
      expect(csp).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
