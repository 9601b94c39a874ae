/**
 * Resolving the URL of published content (`resolvePublishedContentByUrl`,
 * `getPublishedContentByUrl`): which site, section, site space and space a URL opens, decided as
 * the published sites decide it (src/published/): the same site lookup, the same access rule
 * (share links, visitor tokens, previews), the same path resolution and site redirects. A renderer of
 * published sites (GitBook's open-source one) starts every page with this call, then reads the
 * content with the answer's `apiToken` (src/core/site-tokens.ts).
 *
 * Which site a URL names:
 * - on the API's own host (any scheme or port: a renderer asks for the portless `https://` form of
 *   whatever host it was given), `…/sites/<organization hostname or id>/<basename>/…`;
 * - on any other host, the sites served there (`sitesOnHost`: proxy origins, a site's or its
 *   organization's custom hostname) — the one lookup a verified custom hostname plugs into.
 */
import { createHash } from 'node:crypto';
import { signingKey } from '../../core/keys.js';
import { signSiteToken } from '../../core/site-tokens.js';
import type { App } from '../../http/app.js';
import { badRequest, notFound, unauthorized } from '../../lib/errors.js';
import { type Access, decideAccess } from '../../published/access.js';
import {
  findSiteId,
  hasConditions,
  matchHostSite,
  type SiteModel,
  sitesOnHost,
  visitorView,
} from '../../published/model.js';
import { SiteReader } from '../../published/reader.js';
import { PublishedUrls } from '../../sites/urls.js';

export interface PublishedLookupInput {
  url: string;
  visitorAuthToken?: string;
  redirectOnError?: boolean;
  unsignedClaims?: Record<string, unknown>;
  visitorType?: 'human' | 'agent';
  /** For a caller who reads the space anyway (getContentByUrl): the site's own access rule is not applied. */
  trusted?: boolean;
}

export type PublishedLookup =
  | { target: 'application' | 'content'; redirect: string }
  | { target: 'external'; site: string; redirect: string }
  | {
      site: string;
      siteSection?: string;
      siteSpace: string;
      space: string;
      pathname: string;
      basePath: string;
      siteBasePath: string;
      apiToken: string;
      organization: string;
      shareKey?: string;
      complete: boolean;
      contextId?: string;
      canonicalUrl: string;
    };

interface Located {
  siteId: string;
  /** The path the site is served under in this URL (`/sites/acme/docs`, or `/docs` on a host). */
  basePath: string;
  origin: string;
}

function parse(raw: string): URL {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw badRequest('url must be an absolute http or https URL');
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** The site a URL names, and the base path it is served under there. */
async function locate(app: App, url: URL): Promise<Located | null> {
  const publicUrl = new URL(app.config.publicUrl);
  const publicPath = publicUrl.pathname.replace(/\/+$/, '');
  const hostname = url.hostname.toLowerCase();
  const onApiHost = hostname === publicUrl.hostname.toLowerCase() && (url.port === '' || url.port === publicUrl.port);
  if (onApiHost && url.pathname.startsWith(`${publicPath}/sites/`)) {
    const [orgRaw = '', basenameRaw = ''] = url.pathname.slice(`${publicPath}/sites/`.length).split('/');
    const organization = decode(orgRaw);
    const basename = decode(basenameRaw);
    if (!organization || !basename) return null;
    const siteId = await findSiteId(app.db, organization, basename);
    if (!siteId) return null;
    return { siteId, basePath: `${publicPath}/sites/${orgRaw}/${basenameRaw}`, origin: url.origin };
  }
  const match = matchHostSite(await sitesOnHost(app.db, hostname), url.pathname.replace(/\/+$/, '') || '/');
  return match ? { siteId: match.siteId, basePath: match.basePath, origin: url.origin } : null;
}

/** Access as a published site decides it; a credential it would move to a cookie is taken as given. */
async function access(app: App, model: SiteModel, url: URL, input: PublishedLookupInput): Promise<Access> {
  const query = new URLSearchParams(url.search);
  if (input.visitorAuthToken) query.set('jwt_token', input.visitorAuthToken);
  const credentials = {
    query,
    cookies: {} as Record<string, string>,
    url: `${url.pathname}?${query}`,
    returnTo: url.href,
    signingKey: () => signingKey(app.db),
  };
  const first = await decideAccess(model, credentials);
  if (first.kind !== 'remember') return first;
  // The credential is good: decide again with it where a reader's browser would keep it.
  const again = new URLSearchParams();
  for (const [key, value] of query) if (!['share', 'jwt_token', 'preview'].includes(key)) again.append(key, value);
  return decideAccess(model, { ...credentials, query: again, cookies: { [first.cookie.name]: first.cookie.value } });
}

const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`);

export async function resolvePublishedUrl(app: App, input: PublishedLookupInput): Promise<PublishedLookup> {
  const url = parse(input.url);
  const located = await locate(app, url);
  const model = located ? await app.published.model(located.siteId) : null;
  if (!located || !model) throw notFound(`no published content at ${url.href}`);
  const { site } = model;

  const decided: Access = input.trusted ? { kind: 'open', preview: false } : await access(app, model, url, input);
  if (decided.kind === 'not-found' || decided.kind === 'remember')
    throw notFound(`no published content at ${url.href}`);
  if (decided.kind === 'login' || decided.kind === 'unauthorized') {
    if (input.redirectOnError && decided.kind === 'login') {
      return { target: 'external', site: site.id, redirect: decided.location };
    }
    throw unauthorized('this site needs a valid visitorAuthToken');
  }
  const visitorClaims = decided.claims;
  const view = hasConditions(model)
    ? visitorView(model, { claims: { ...visitorClaims, unsigned: input.unsignedClaims ?? {} } })
    : model;
  const reader = new SiteReader(app.db, view, located.basePath);
  const rest = url.pathname.slice(located.basePath.length);
  const segments: string[] = [];
  for (const part of rest.split('/').filter(Boolean)) {
    const decoded = decode(part);
    if (decoded === null) throw notFound(`no published content at ${url.href}`);
    segments.push(decoded);
  }
  const place = await reader.resolve(segments);
  if (place.kind === 'redirect') {
    return { target: 'content', redirect: new URL(place.location, url.origin).href };
  }
  const content = place.content;
  if (!content) throw notFound(`no published content at ${url.href}`);

  const siteSpaceBase = reader.siteSpaceHref(content.siteSpace);
  const pathname = url.pathname.startsWith(siteSpaceBase)
    ? url.pathname.slice(siteSpaceBase.length).replace(/^\/+|\/+$/g, '')
    : segments.join('/');
  const shareKey = site.visibility === 'share-link' ? (url.searchParams.get('share') ?? undefined) : undefined;
  const spaces = [...new Set(reader.model.structure.siteSpaces.map((s) => s.space_id))].filter((id) =>
    model.spaces.has(id),
  );
  const { token } = await signSiteToken(app.db, {
    organization: site.organization_id,
    site: site.id,
    siteSpace: content.siteSpace.id,
    ...(content.section ? { siteSection: content.section.id } : {}),
    space: content.space.id,
    spaces,
    ...(visitorClaims ? { claims: visitorClaims } : {}),
    visitorType: input.visitorType ?? 'human',
  });
  const canonicalBase = new PublishedUrls(site, model.org, app.urls).base;
  const pagePath = place.kind === 'page' ? reader.pagePath(content, place.entry) : '';
  return {
    site: site.id,
    ...(content.section ? { siteSection: content.section.id } : {}),
    siteSpace: content.siteSpace.id,
    space: content.space.id,
    pathname,
    basePath: withSlash(siteSpaceBase),
    siteBasePath: withSlash(located.basePath || '/'),
    apiToken: token,
    organization: site.organization_id,
    ...(shareKey ? { shareKey } : {}),
    complete: true,
    ...(visitorClaims
      ? {
          contextId: createHash('sha256').update(JSON.stringify(visitorClaims)).digest('base64url').slice(0, 22),
        }
      : {}),
    canonicalUrl: `${canonicalBase}${pagePath}`,
  };
}
