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
 * server's signing key naming the site, valid one hour, which opens the site whatever its state; one
 * made for a site space (`?siteSpace=`) opens that site space only (the others stay as the site's
 * state and visibility make them for this reader).
 *
 * A visitor token must say when it expires (`exp`): without one it would open the site for ever, and
 * its cookie would have no end either. Its audience and issuer are not checked: a site's visitor
 * settings name neither (the official `SitePublishingAuth` has a key and URLs only), GitBook's guide
 * signs tokens without them, and the key is the site's own, so a token made for another site, or by
 * anyone else, does not verify anyway.
 * A credential given in the query is moved to a cookie scoped to the site's path, and the reader is
 * sent to the same address without it (so it does not stay in history, logs or shared links).
 * jose is imported where a token is signed or verified, not at start-up (idle memory).
 */
import type { SiteModel } from './model.js';

export type Access =
  /**
   * `claims`: what the visitor's token says of them (visitor-auth sites), for adaptive content.
   * `siteSpace`: opened by a preview of that site space, the only one then readable.
   */
  | { kind: 'open'; preview: boolean; claims?: Record<string, unknown>; siteSpace?: string }
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

export const cookieName = (kind: 'share' | 'visitor' | 'preview' | 'claims', siteId: string) =>
  `bindery_${kind}_${siteId}`;

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
  const { SignJWT } = await import('jose');
  return new SignJWT({ site: siteId, ...(siteSpaceId ? { siteSpace: siteSpaceId } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('bindery-preview')
    .setIssuedAt()
    .setExpirationTime(`${PREVIEW_SECONDS}s`)
    .sign(key);
}

/** When a valid preview token of `siteId` expires, and the site space it is limited to (if any). */
async function validPreview(
  token: string | undefined,
  key: Uint8Array,
  siteId: string,
): Promise<{ expires: number; siteSpace?: string } | null> {
  if (!token) return null;
  try {
    const { jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: 'bindery-preview',
      requiredClaims: ['exp'],
    });
    if (payload.site !== siteId || !payload.exp) return null;
    const { siteSpace } = payload;
    if (siteSpace === undefined) return { expires: payload.exp };
    return typeof siteSpace === 'string' ? { expires: payload.exp, siteSpace } : null;
  } catch {
    return null;
  }
}

/** JWT registered claims: not the visitor's own (conditions read only what the issuer said of them). */
const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/**
 * Seconds left of a visitor token signed with `privateKey`, and the visitor's claims in it; null when
 * it is invalid or expired.
 */
async function validVisitorToken(
  token: string | undefined,
  privateKey: string,
): Promise<{ left: number; claims: Record<string, unknown> } | null> {
  if (!token) return null;
  try {
    const { jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, new TextEncoder().encode(privateKey), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    });
    const now = Math.floor(Date.now() / 1000);
    const claims = Object.fromEntries(Object.entries(payload).filter(([key]) => !REGISTERED.has(key)));
    return { left: Math.max((payload.exp as number) - now, 1), claims };
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
    const preview = await validPreview(previewParam ?? previewCookie, key, site.id);
    if (preview && previewParam) {
      const maxAge = Math.max(preview.expires - Math.floor(Date.now() / 1000), 1);
      return {
        kind: 'remember',
        cookie: { name: cookieName('preview', site.id), value: previewParam, maxAge },
        location: without(credentials.url, 'preview'),
      };
    }
    if (preview?.siteSpace !== undefined) {
      // A preview of one site space: the site as this reader may see it anyway, else that one only.
      const access = await readerAccess(model, credentials);
      return access.kind === 'open' || access.kind === 'remember'
        ? access
        : { kind: 'open', preview: true, siteSpace: preview.siteSpace };
    }
    if (preview) return { kind: 'open', preview: true };
  }
  return readerAccess(model, credentials);
}

/** Access by the site's state and visibility (no preview). */
async function readerAccess(model: SiteModel, credentials: Credentials): Promise<Access> {
  const { site } = model;
  const { query, cookies } = credentials;
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
      const valid = auth ? await validVisitorToken(token ?? undefined, auth.privateKey) : null;
      if (valid !== null && param !== null) {
        return {
          kind: 'remember',
          cookie: { name: cookieName('visitor', site.id), value: param, maxAge: valid.left },
          location: without(credentials.url, 'jwt_token'),
        };
      }
      if (valid !== null) return { kind: 'open', preview: false, claims: valid.claims };
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

const CLAIM_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CLAIMS = 20;
const MAX_CLAIM_LENGTH = 256;

/**
 * The unsigned claims a visitor brings for adaptive content: `?visitor.<name>=<value>` in the address
 * (`true`/`false` read as booleans, anything else as text), merged over those kept from earlier in
 * the site's cookie. They are the visitor's own word, so conditions find them apart from the signed
 * ones, under `visitor.claims.unsigned`. `cookie` is set when the address brought new ones.
 */
export function unsignedClaims(
  query: URLSearchParams,
  cookies: Record<string, string>,
  siteId: string,
): { claims: Record<string, string | boolean>; cookie?: { name: string; value: string; maxAge: number } } {
  const name = cookieName('claims', siteId);
  let kept: Record<string, string | boolean> = {};
  try {
    const parsed: unknown = cookies[name] ? JSON.parse(cookies[name]) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) kept = parsed as typeof kept;
  } catch {
    // A cookie we cannot read is dropped.
  }
  const claims: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(kept)) {
    if (CLAIM_NAME.test(key) && (typeof value === 'boolean' || typeof value === 'string')) claims[key] = value;
  }
  let changed = false;
  for (const [param, raw] of query) {
    if (!param.startsWith('visitor.')) continue;
    const key = param.slice('visitor.'.length);
    if (!CLAIM_NAME.test(key) || raw.length > MAX_CLAIM_LENGTH) continue;
    claims[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
    changed = true;
  }
  const names = Object.keys(claims).slice(0, MAX_CLAIMS);
  const bounded = Object.fromEntries(names.map((key) => [key, claims[key] as string | boolean]));
  return changed
    ? { claims: bounded, cookie: { name, value: JSON.stringify(bounded), maxAge: SHARE_DAYS * 86400 } }
    : { claims: bounded };
}
