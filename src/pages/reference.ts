/**
 * The API reference at /docs: one HTML page written on the server from the OpenAPI document the app
 * generates (reference-page.ts), with no script, so the browser draws it as it arrives: the first
 * operation appears in well under a second, where Redoc needed about 3 s and Swagger UI before it
 * 4.5 s on the 750 KB document (and more as operations are added). The page is written once per
 * process, on its first request (the document does not change while the process runs), and sent with
 * its ETag. Its policy allows nothing but its own stylesheet, by hash.
 *
 * Redoc's standalone bundle, served from its npm package, stays at /docs/redoc for a reference with a
 * search. Nothing is loaded from elsewhere: the bundle's one outside URL (the Redocly logo of its
 * sidebar) is replaced, it loads no font (the system's are used), and its page's
 * Content-Security-Policy allows nothing but this origin (and the blob: worker of Redoc's search).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { App } from '../http/app.js';
import { basePath, htmlPage } from './html.js';
import { referenceBody } from './reference-page.js';
import { REFERENCE_STYLE } from './reference-style.js';

const require = createRequire(import.meta.url);
const BUNDLE = 'redoc/bundles/redoc.standalone.js';
const OUTSIDE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

/** No script at all; the one inline stylesheet by its hash; the favicon is a `data:` URL. */
const REFERENCE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${sha256(REFERENCE_STYLE)}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const REDOC_CSP = [
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

function redocPage(base: string): string {
  return htmlPage(
    'Bindery API reference (Redoc)',
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
  const options = { config: { public: true }, schema: { hide: true } };

  let reference: { body: Buffer; etag: string } | undefined;
  const referencePage = () => {
    if (!reference) {
      const links = { openapi: `${base}/v1/openapi.json`, interactive: `${base}/docs/redoc`, home: `${base}/` };
      const body = Buffer.from(htmlPage('Bindery API reference', REFERENCE_STYLE, referenceBody(document(), links)));
      reference = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    }
    return reference;
  };
  app.get('/docs', options, async (_request, reply) => {
    const { body, etag } = referencePage();
    // The conditional-requests plugin answers If-None-Match with a 304 from this ETag.
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', REFERENCE_CSP)
      .header('etag', etag)
      .send(body);
  });

  const redoc = redocPage(base);
  app.get('/docs/redoc', options, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', REDOC_CSP).send(redoc),
  );
  app.get('/docs/redoc.standalone.js', options, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await redocBundle()),
  );
  // The document Redoc draws, the same as /v1/openapi.json (kept at the address Swagger UI used).
  app.get('/docs/json', options, async () => document());
}
