/**
 * The API reference at /docs: Redoc's standalone bundle, served from its npm package, drawing the
 * OpenAPI document the app generates, every operation on one page. On the 750 KB document, Swagger
 * UI before it spent 4.5-4.8 s of the page's main thread (on a busy 2-core machine), Redoc 3.2-3.5 s.
 * Nothing is loaded from elsewhere: the bundle's one outside URL (the Redocly logo of its sidebar) is
 * replaced, it loads no font (the system's are used), and the page's Content-Security-Policy allows
 * nothing but this origin (and the blob: worker of Redoc's search).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { App } from '../http/app.js';
import { basePath, htmlPage } from './html.js';

const require = createRequire(import.meta.url);
const BUNDLE = 'redoc/bundles/redoc.standalone.js';
const OUTSIDE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Redoc (styled-components) writes its styles into <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // The search index is built in a worker Redoc makes from a blob.
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(base: string): string {
  return htmlPage(
    'Bindery API reference',
    'body { margin: 0; }',
    `<redoc spec-url="${base}/docs/json"></redoc>
<script src="${base}/docs/redoc.standalone.js"></script>`,
  );
}

/** Read on the first request, not at start-up (1 MB that most processes never serve). */
let bundle: Promise<Buffer> | undefined;
function redocBundle(): Promise<Buffer> {
  bundle ??= readFile(require.resolve(BUNDLE), 'utf8').then((text) =>
    // An image that fails to load is dropped from the sidebar by Redoc itself.
    Buffer.from(text.replaceAll(OUTSIDE_LOGO, 'data:,')),
  );
  return bundle;
}

export function registerReference(app: App, document: () => unknown): void {
  // Links are absolute paths under PUBLIC_URL's path, as the published sites' are, so that /docs/
  // (the router ignores trailing slashes) loads the same files as /docs.
  const base = basePath(app);
  const html = page(base);
  const options = { config: { public: true }, schema: { hide: true } };
  app.get('/docs', options, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', CSP).send(html),
  );
  app.get('/docs/redoc.standalone.js', options, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await redocBundle()),
  );
  // The document the page draws, the same as /v1/openapi.json (kept at the address Swagger UI used).
  app.get('/docs/json', options, async () => document());
}
