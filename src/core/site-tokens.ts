/**
 * Site API tokens: the `apiToken` that resolving a published URL answers with
 * (`resolvePublishedContentByUrl`), which a renderer of published sites (GitBook's own open-source one)
 * decodes and then sends back as `Authorization: Bearer <token>` to read the site's content.
 *
 * It is a JWT (HS256, signed with the server's signing key, src/core/keys.ts) whose claims are the
 * official `SiteAPIToken` (`kind: site`, `organization`, `spaces`, `site`, `siteSpace`, `space`, …),
 * valid {@link SITE_TOKEN_SECONDS}. Nothing is stored: a token is valid while its signature and
 * expiry are. It acts as a principal of its own, the site's reader (`site:<siteId>`), which is no
 * member of anything; src/permissions gives that principal `read` on the site and on the spaces of its
 * site spaces, and nothing else; its scopes are reads only, so every write is a 403 at the scope check.
 */
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { signingKey } from './keys.js';
import type { TokenCheck } from './tokens.js';

export const SITE_TOKEN_SECONDS = 3600;
const AUDIENCE = 'bindery-site-api';
const READER_PREFIX = 'site:';
/** Reads of a site and of its spaces' content, nothing more. */
const SITE_TOKEN_SCOPES: ReadonlySet<string> = new Set(['site:read', 'space:read']);

/** The principal (user id) a site token acts as. */
export function siteReaderId(siteId: string): string {
  return `${READER_PREFIX}${siteId}`;
}

/** The site whose reader `userId` is; null for any real user. */
export function siteOfReader(userId: string): string | null {
  return userId.startsWith(READER_PREFIX) ? userId.slice(READER_PREFIX.length) : null;
}

/** Whether a bearer secret has a JWT's shape (ours are `bnd_…`, which never does). */
export function looksLikeJwt(secret: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(secret);
}

export interface SiteTokenClaims {
  organization: string;
  site: string;
  siteSpace: string;
  siteSection?: string;
  space: string;
  /** Spaces of the site the reader may read. */
  spaces: string[];
  /** The visitor's claims (visitor-auth sites), for adaptive content. */
  claims?: Record<string, unknown>;
  visitorType?: 'human' | 'agent';
}

/** A signed site token, and when it expires (epoch seconds). */
export async function signSiteToken(db: Db, claims: SiteTokenClaims): Promise<{ token: string; expires: number }> {
  const { SignJWT } = await import('jose');
  const now = Math.floor(Date.now() / 1000);
  const expires = now + SITE_TOKEN_SECONDS;
  const token = await new SignJWT({ kind: 'site', draft: false, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(AUDIENCE)
    .setSubject(siteReaderId(claims.site))
    .setIssuedAt(now)
    .setExpirationTime(expires)
    .sign(await signingKey(db));
  return { token, expires };
}

/** The site reader a valid site token stands for; why not otherwise. */
export async function verifySiteToken(db: Db, secret: string): Promise<TokenCheck> {
  const { jwtVerify, errors } = await import('jose');
  try {
    const { payload } = await jwtVerify(secret, await signingKey(db), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      requiredClaims: ['exp', 'site'],
    });
    if (payload.kind !== 'site' || typeof payload.site !== 'string') {
      return { ok: false, reason: 'the access token is invalid' };
    }
    const user: UserRow = {
      id: siteReaderId(payload.site),
      email: '',
      display_name: 'Site reader',
      photo_url: null,
      created_at: new Date((payload.iat ?? 0) * 1000).toISOString(),
    };
    return { ok: true, token: { tokenId: siteReaderId(payload.site), user, scopes: SITE_TOKEN_SCOPES } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'the access token has expired' };
    return { ok: false, reason: 'the access token is invalid' };
  }
}
