/**
 * The web app, served by the server that answers its API: `index.html` at `/` and at every app
 * address the API hands out (`urls.app`: `/o/…`, `/s/…`, `/c/…`), so deep links work on reload, and
 * its hashed files under `/app/assets/` (immutable). The page gets a `<base href>` and the server's
 * path (PUBLIC_URL may have one), and a strict Content-Security-Policy: scripts and styles from this
 * origin only, no inline script; the one exception is a `<style>` element carrying the response's
 * nonce (a fresh random one per response, in `<meta name="bindery-style-nonce">`): Radix's dialogs,
 * selects and menus inject small style elements (scroll locking, a hidden scrollbar) and mark them
 * with it, so they apply without allowing inline styles in general. Without a build (a checkout where it was never built and Vite is
 * absent), `/` keeps the small landing page.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { verifySession } from '../core/sessions.js';
import type { App } from '../http/app.js';
import { sessionSecretOf } from '../http/auth.js';
import { basePath } from '../pages/html.js';
import { registerLanding } from '../pages/landing.js';
import { APP_DIST } from './build.js';
import { preloadLinks, readEditorFiles } from './preload.js';

/** The addresses of the app's screens (their first path segment), besides `/`. */
export const APP_PREFIXES = ['o', 's', 'c', 'account'] as const;

/** Where index.html takes the response's style nonce. */
const NONCE_MARK = '__BINDERY_STYLE_NONCE__';
/** Where index.html takes the hints of what its screen will fetch first (src/web/preload.ts). */
const PRELOAD_MARK = '<!--bindery-preload-->';

/** The app page's policy; `styleNonce` admits the style elements that carry it. */
export const appCsp = (styleNonce: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** index.html as built, with where the app lives and the links a reader without JavaScript needs. */
export function appIndexHtml(built: string, base: string): string {
  const head = `<base href="${escapeAttribute(`${base}/app/`)}">\n    <meta name="bindery-base" content="${escapeAttribute(base)}">\n    <meta name="bindery-style-nonce" content="${NONCE_MARK}">\n    ${PRELOAD_MARK}`;
  const noscript = `<noscript><main><h1>Bindery</h1><p>The Bindery app needs JavaScript. Without it: the <a href="${escapeAttribute(base)}/docs">API reference</a>, the <a href="${escapeAttribute(base)}/v1/openapi.json">OpenAPI document</a>, and the documentation in Bindery's source (<code>docs/guide/</code>).</p></main></noscript>`;
  return built
    .replace('<meta charset="utf-8" />', (m) => `${m}\n    ${head}`)
    .replace(/<noscript>[\s\S]*?<\/noscript>/, noscript);
}

export async function registerWebApp(app: App): Promise<void> {
  const indexFile = path.join(APP_DIST, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn('the web app is not built (app/dist): `/` serves the landing page; run `npm run build:app`');
    registerLanding(app);
    return;
  }
  const base = basePath(app);
  const html = appIndexHtml(readFileSync(indexFile, 'utf8'), base);
  const editorFiles = readEditorFiles(APP_DIST);
  const policy = { idleMs: app.config.sessionIdleMs, maxMs: app.config.sessionMaxMs };
  const sendIndex = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    const secret = sessionSecretOf(request);
    const signedIn = secret ? (await verifySession(app.db, secret, policy)).ok : false;
    const appPath = request.url.split('?')[0] ?? '/';
    return reply
      .header('content-security-policy', appCsp(nonce))
      .header('cache-control', 'no-cache')
      .header('vary', 'cookie')
      .type('text/html; charset=utf-8')
      .send(html.replace(NONCE_MARK, nonce).replace(PRELOAD_MARK, preloadLinks(appPath, base, signedIn, editorFiles)));
  };
  const options = { config: { public: true }, schema: { hide: true } } as const;
  app.get('/', options, sendIndex);
  for (const prefix of APP_PREFIXES) {
    app.get(`/${prefix}`, options, sendIndex);
    app.get(`/${prefix}/*`, options, sendIndex);
  }
  await app.register(fastifyStatic, {
    root: path.join(APP_DIST, 'assets'),
    prefix: '/app/assets/',
    // Every file name carries a hash of its content: a new build is a new name.
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: true,
    decorateReply: false,
  });
}
