/**
 * `/`: a small page for whoever opens the server's address in a browser, pointing at the API
 * reference and the documentation. A route of its own, so that the web app that will answer `/`
 * replaces it without touching anything else.
 */
import type { App } from '../http/app.js';
import { basePath, htmlPage } from './html.js';

function page(base: string): string {
  return htmlPage(
    'Bindery',
    'body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }',
    `<main>
<h1>Bindery</h1>
<p>This server answers a documentation-publishing API compatible with GitBook's public API.</p>
<ul>
<li><a href="${base}/docs">API reference</a>, and the same as an <a href="${base}/v1/openapi.json">OpenAPI document</a></li>
<li><a href="${base}/readyz">Readiness</a> (whether the database answers)</li>
</ul>
<p>How to use it, run it and work on it: <code>README.md</code> and the <code>docs/</code> folder of
Bindery's source (<code>docs/guide/</code> for the API, <code>docs/operating.md</code> for running a server).</p>
</main>`,
  );
}

export function registerLanding(app: App): void {
  const html = page(basePath(app));
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(html),
  );
}
