/**
 * Who may read a published site (decided per request, before anything of the site is rendered):
 *
 * | site | reader |
 * |---|---|
 * | unpublished | nobody (a preview link aside): 404 |
 * | `public`, `unlisted` | anyone |
 * | `share-link` | `?share=<key>` of an active share link of the site, then the HttpOnly cookie it sets; otherwise 404 |
 * | `visitor-auth` | a JWT (HS256) signed with the site's visitor key, as `?jwt_token=`, then the cookie it sets; otherwise the site's login URL (`fallbackURL`, with `?location=`) or 401 |
 *
 * A preview link (`getSitePublishingPreviewById`) carries `?preview=<token>`: a JWT signed with the
 * server's signing key naming the site, valid one hour, which opens the site whatever its state.
 * A credential given in the query is moved to a cookie scoped to the site's path, and the reader is
 * sent to the same address without it (so it does not stay in history, logs or shared links).
 */
import { jwtVerify, SignJWT } from 'jose';
import type { SiteModel } from './model.js';

export type Access =
  | { kind: 'open'; preview: boolean }
  /** Keep `cookie` and come back to `location` (the same address without the credential). */
  | { kind: 'remember'; cookie: { name: string; value: string; maxAge: number }; location: string }
  | { kind: 'not-found' }
  | { kind: 'unauthorized' }
  | { kind: 'login'; location: string };

export interface Credentials {
  query: URLSearchParams;
  cookies: Record<string, string>;
  /** The request's path and query (to come back to without the credential). */
  url: string;
  /** The address of the site's login redirect back to (`?location=`). */
  returnTo: string;
  /** The server's signing key (preview links). */
  signingKey: () => Promise<Uint8Array>;
}

const SHARE_DAYS = 30;
export const PREVIEW_SECONDS = 3600;

export const cookieName = (kind: 'share' | 'visitor' | 'preview', siteId: string) => `bindery_${kind}_${siteId}`;

/** `url` without the query parameter `name`. */
function without(url: string, name: string): string {
  const [path, query = ''] = url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.delete(name);
  const rest = params.toString();
  return rest ? `${path}?${rest}` : (path as string);
}

/** A signed preview token for `siteId`, valid {@link PREVIEW_SECONDS}. */
export async function previewToken(key: Uint8Array, siteId: string, siteSpaceId?: string): Promise<string> {
  return new SignJWT({ site: siteId, ...(siteSpaceId ? { siteSpace: siteSpaceId } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('bindery-preview')
    .setIssuedAt()
    .setExpirationTime(`${PREVIEW_SECONDS}s`)
    .sign(key);
}

async function validPreview(token: string | undefined, key: Uint8Array, siteId: string): Promise<number | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: 'bindery-preview' });
    return payload.site === siteId && payload.exp ? payload.exp : null;
  } catch {
    return null;
  }
}

/** Seconds left of a visitor token signed with `privateKey`; null when it is invalid or expired. */
async function validVisitorToken(token: string | undefined, privateKey: string): Promise<number | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(privateKey), { algorithms: ['HS256'] });
    const now = Math.floor(Date.now() / 1000);
    return payload.exp ? Math.max(payload.exp - now, 1) : 24 * 3600;
  } catch {
    return null;
  }
}

export async function decideAccess(model: SiteModel, credentials: Credentials): Promise<Access> {
  const { site } = model;
  const { query, cookies } = credentials;

  const previewParam = query.get('preview') ?? undefined;
  const previewCookie = cookies[cookieName('preview', site.id)];
  if (previewParam || previewCookie) {
    const key = await credentials.signingKey();
    const expires = await validPreview(previewParam ?? previewCookie, key, site.id);
    if (expires && previewParam) {
      const maxAge = Math.max(expires - Math.floor(Date.now() / 1000), 1);
      return {
        kind: 'remember',
        cookie: { name: cookieName('preview', site.id), value: previewParam, maxAge },
        location: without(credentials.url, 'preview'),
      };
    }
    if (expires) return { kind: 'open', preview: true };
  }

  if (site.published !== 1) return { kind: 'not-found' };
  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return { kind: 'open', preview: false };
    case 'share-link': {
      const param = query.get('share');
      if (param !== null) {
        if (!model.shareKeys.has(param)) return { kind: 'not-found' };
        return {
          kind: 'remember',
          cookie: { name: cookieName('share', site.id), value: param, maxAge: SHARE_DAYS * 86400 },
          location: without(credentials.url, 'share'),
        };
      }
      const kept = cookies[cookieName('share', site.id)];
      return kept && model.shareKeys.has(kept) ? { kind: 'open', preview: false } : { kind: 'not-found' };
    }
    case 'visitor-auth': {
      const auth = model.visitorAuth;
      const param = query.get('jwt_token');
      const token = param ?? cookies[cookieName('visitor', site.id)];
      const left = auth ? await validVisitorToken(token ?? undefined, auth.privateKey) : null;
      if (left !== null && param !== null) {
        return {
          kind: 'remember',
          cookie: { name: cookieName('visitor', site.id), value: param, maxAge: left },
          location: without(credentials.url, 'jwt_token'),
        };
      }
      if (left !== null) return { kind: 'open', preview: false };
      if (auth?.fallbackUrl) {
        const login = new URL(auth.fallbackUrl);
        login.searchParams.set('location', credentials.returnTo);
        return { kind: 'login', location: login.href };
      }
      return { kind: 'unauthorized' };
    }
    default:
      return { kind: 'not-found' };
  }
}

/** The cookies of a `Cookie` header (the last of two with one name wins; undecodable values are skipped). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    try {
      out[name] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      // A value that is not URI-encoded is not one of ours.
    }
  }
  return out;
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, for the site's path only (Secure over HTTPS). */
export function setCookie(
  cookie: { name: string; value: string; maxAge: number },
  path: string,
  secure: boolean,
): string {
  return [
    `${cookie.name}=${encodeURIComponent(cookie.value)}`,
    `Path=${path || '/'}`,
    `Max-Age=${Math.floor(cookie.maxAge)}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
