/**
 * Where published sites are served, outside the API:
 * - `PUBLIC_URL/sites/<organization hostname or id>/<basename>/…`, the address the API builds when
 *   a site has no host of its own;
 * - any request whose `Host` is a site's proxy origin or custom hostname (or its organization's),
 *   at the path the site is published under there. Those requests are answered from an `onRequest`
 *   hook, before routing, since such a host serves nothing else of this server.
 *
 * - `PUBLIC_URL/sites/~changes/<change request id>` and `…/<basename>/~changes/<id>/…`: a change
 *   request's preview (./change-preview.ts), at the public URL only, where the app's session is.
 *
 * Registered with fastify-plugin, so its host hook sees every request. What it keeps of the sites
 * (which site an address or a host names, each site's model) follows the change feed
 * (src/published/cache.ts): a change is seen at once, whichever process made it.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from '../http/app.js';
import { fromTrustedProxy, trustFunction, trustProxyOption } from '../http/proxy.js';
import { Memo } from './cache.js';
import { CHANGES_SEGMENT, serveChangeEntry, serveChangePreview } from './change-preview.js';
import { FEEDBACK_BODY_LIMIT } from './feedback.js';
import { findSiteId, type HostSite, matchHostSite, sitesOnHost } from './model.js';
import { bare, PublishedSites } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The published sites this process serves (models and render cache). */
    published: PublishedSites;
  }
}

function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/**
 * The host the request was sent to, lower-cased: Fastify's `request.host`, which is
 * `X-Forwarded-Host` only when a proxy `TRUST_PROXY` trusts sent it (else any client could have a
 * site answer on the API's address, or the API's host be taken for a site's), else `Host`.
 */
function hostOf(request: FastifyRequest): string | undefined {
  const host = request.host;
  return host === '' ? undefined : host.toLowerCase();
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

async function publishedPlugin(app: App): Promise<void> {
  // How this process learns of changes (http/change-feed.ts); without one (a Db not made by
  // createDb), nothing is kept.
  const feed = app.changeFeed;
  const generation = feed ? () => feed.generation() : () => undefined;
  const published = new PublishedSites(app, generation);
  app.decorate('published', published);
  const publicUrl = new URL(app.config.publicUrl);
  const publicPath = publicUrl.pathname.replace(/\/+$/, '');
  const addresses = new Memo<string | null>(generation);
  const hosts = new Memo<HostSite[]>(generation, 1_000);

  // Whether the reader came over HTTPS: what a trusted proxy's `X-Forwarded-Proto` says (Fastify's
  // `request.protocol` then), else `fallback`. A client's own header is ignored: it would drop the
  // cookies' `Secure` flag and make pages (and their render cache entries) for another origin.
  const trusted = trustFunction(trustProxyOption(app.config.trustProxy));
  const secureOf = (request: FastifyRequest, fallback: boolean) =>
    request.headers['x-forwarded-proto'] !== undefined && fromTrustedProxy(trusted, request.raw.socket)
      ? request.protocol === 'https'
      : fallback;

  // Sites on their own host. Hosts are lower-cased; the API's own host is never a site's. The
  // origin is the site's hostname without the request's port, as the API gives its address
  // (src/sites/urls.ts): any port a request names would otherwise be a render cache entry of its own.
  const serveOnHost = (request: FastifyRequest, reply: FastifyReply, hostname: string, site: HostSite) => {
    const secure = secureOf(request, true);
    return published.serve(request, reply, {
      siteId: site.siteId,
      basePath: site.basePath,
      origin: `${secure ? 'https' : 'http'}://${hostname}`,
      rest: pathOf(request.url).slice(site.basePath.length),
      secure,
    });
  };
  // A callback hook (no promise per request): most requests pass it without any work.
  // A request for a host known to have no site (or none at its path) goes on at once; the others
  // wait for the host's sites and are answered here when one matches. Replying ends the request:
  // `done` is not called then.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && pathOf(request.url).endsWith('/~feedback'))) {
      return done();
    }
    const host = hostOf(request);
    if (!host || host === publicUrl.host) return done();
    const hostname = host.replace(/:\d+$/, '');
    const known = hosts.peek(hostname);
    if (known !== undefined) {
      const match = matchHostSite(known, pathOf(request.url));
      if (!match) return done();
      serveOnHost(request, reply, hostname, match).catch(done);
      return;
    }
    hosts
      .get(hostname, () => sitesOnHost(app.db, hostname))
      .then((sites) => {
        const match = matchHostSite(sites, pathOf(request.url));
        if (!match) return done();
        serveOnHost(request, reply, hostname, match).catch(done);
      }, done);
  });

  const serveAtPublicUrl = async (request: FastifyRequest, reply: FastifyReply) => {
    const [, , orgRaw = '', basenameRaw = '', ...rest] = pathOf(request.url).split('/');
    const organization = safeDecode(orgRaw);
    const basename = safeDecode(basenameRaw);
    if (!organization || !basename) return bare(reply, 404);
    const sitesPath = `${publicPath}/sites`;
    if (organization === CHANGES_SEGMENT && rest.length === 0) {
      return serveChangeEntry(published, request, reply, basename, sitesPath);
    }
    const siteId = await addresses.get(`${organization}\0${basename}`, () =>
      findSiteId(app.db, organization, basename),
    );
    if (!siteId) return bare(reply, 404);
    const basePath = `${sitesPath}/${encodeURIComponent(organization)}/${encodeURIComponent(basename)}`;
    const secure = secureOf(request, publicUrl.protocol === 'https:');
    const [first, changeRequestRaw, ...inside] = rest;
    const changeRequestId = first === CHANGES_SEGMENT && changeRequestRaw ? safeDecode(changeRequestRaw) : null;
    if (changeRequestId && request.method !== 'POST') {
      return serveChangePreview(
        published,
        request,
        reply,
        {
          siteId,
          basePath: `${basePath}/${CHANGES_SEGMENT}/${encodeURIComponent(changeRequestId)}`,
          origin: publicUrl.origin,
          rest: inside.length > 0 ? `/${inside.join('/')}` : '',
          secure,
        },
        changeRequestId,
      );
    }
    return published.serve(request, reply, {
      siteId,
      basePath,
      origin: publicUrl.origin,
      rest: rest.length > 0 ? `/${rest.join('/')}` : '',
      secure,
    });
  };
  const options = { config: { public: true }, schema: { hide: true } };
  app.get('/sites/:organization/:basename', options, serveAtPublicUrl);
  app.get('/sites/:organization/:basename/*', options, serveAtPublicUrl);
  // The feedback form posts URL-encoded fields: a parser for this route only, not the API's.
  await app.register(async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FEEDBACK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    forms.post('/sites/:organization/:basename/~feedback', options, serveAtPublicUrl);
  });
}

export const registerPublished = fp(publishedPlugin, {
  name: 'published-sites',
  dependencies: ['bindery-change-feed'],
});
