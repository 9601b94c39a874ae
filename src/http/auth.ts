/**
 * Authentication: one `onRequest` hook. Every route is private unless its config says
 * `public: true`; every private route must declare the token scope it needs (`config.scope`),
 * which is checked here. Who may touch which resource is decided later, in `src/permissions`.
 *
 * A caller is a bearer token, or else a browser session (the `bindery_session` cookie,
 * src/core/sessions.ts), which acts as a token of its user with every scope. A request with a
 * session cookie that could change something (POST, PUT, PATCH, DELETE) must carry the session's
 * CSRF token in `X-CSRF-Token`, and its `Origin`, when it has one, must be `PUBLIC_URL`'s: another
 * site's page can make a browser send the cookie, but can neither read the token nor forge the
 * origin. A bearer token wins over a cookie sent with it, and needs no CSRF token (a browser never
 * adds it on its own).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type SessionCheck, verifySession } from '../core/sessions.js';
import { looksLikeJwt, verifySiteToken } from '../core/site-tokens.js';
import { bearerSecret, type TokenCheck, verifyToken } from '../core/tokens.js';
import type { UserRow } from '../db/schema.js';
import { cookieValue } from '../lib/cookies.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { type Scope, scopeAllows } from '../lib/scopes.js';

export interface Authenticated {
  user: UserRow;
  /** The token's id; for a session `session:<id>` (what caches and rate limits key the caller by). */
  tokenId: string;
  scopes: ReadonlySet<string> | null;
  /** Set when the caller is a browser session rather than a token. */
  sessionId?: string;
}

/** The cookie that carries a browser session's secret. */
export const SESSION_COOKIE = 'bindery_session';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The session secret a request's cookie carries, or null. */
export function sessionSecretOf(request: FastifyRequest): string | null {
  return cookieValue(request.headers.cookie, SESSION_COOKIE);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (health checks, the OpenAPI document). */
    public?: boolean;
    /** The token scope the operation needs. */
    scope?: Scope;
  }
  interface FastifyRequest {
    /** Set on every private route once the token is verified. */
    auth: Authenticated | null;
  }
}

/** The authenticated caller of a private route. */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw unauthorized('authentication is required');
  return request.auth;
}

/** Decorates `request.auth`; its `onRequest` hook comes before every hook that needs the caller. */
export const auth = fp(registerAuth, { name: 'bindery-auth', dependencies: ['bindery-context'] });

async function registerAuth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('auth', null);
  const publicOrigin = new URL(app.config.publicUrl).origin;
  const policy = { idleMs: app.config.sessionIdleMs, maxMs: app.config.sessionMaxMs };

  app.addHook('onRoute', (route) => {
    const config = route.config as { public?: boolean; scope?: Scope } | undefined;
    if (!config?.public && !config?.scope && route.url.startsWith('/v1')) {
      throw new Error(`route ${route.method} ${route.url} declares neither public nor a scope`);
    }
  });

  // A callback hook: with the token cached (nearly every request) it finishes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    // Only the API is private; the reference page (/docs), health checks and unknown paths (whose
    // config has no url) are open.
    if (config.public || !config.url?.startsWith('/v1')) return done();
    const header = request.headers.authorization;
    const scope = config.scope;
    if (!header) {
      const sessionSecret = sessionSecretOf(request);
      if (sessionSecret) {
        const refusal = crossSiteRefusal(request, publicOrigin);
        if (refusal) return done(refusal);
        verifySession(app.db, sessionSecret, policy).then((check) => {
          const failure = acceptSession(request, check);
          done(failure ?? undefined);
        }, done);
        return;
      }
    }
    const secret = header ? bearerSecret(header) : null;
    if (!secret) return done(unauthorized('an "Authorization: Bearer <token>" header is required'));
    const accept = (check: TokenCheck) => {
      if (!check.ok) return done(unauthorized(check.reason));
      request.auth = check.token;
      if (scope && !scopeAllows(check.token.scopes, scope)) {
        return done(forbidden(`the access token lacks the scope ${scope}`));
      }
      done();
    };
    // A JWT-shaped secret is a site API token (src/core/site-tokens.ts): read-only, one site's content.
    if (looksLikeJwt(secret)) {
      verifySiteToken(app.db, secret).then(accept, done);
      return;
    }
    const check = verifyToken(app.db, secret);
    if ('then' in check) check.then(accept, done);
    else accept(check);
  });
}

/**
 * Why a cookie-authenticated request must be refused before the session is even looked up: an
 * unsafe method from another origin. (The CSRF token is checked once the session is known.)
 */
function crossSiteRefusal(request: FastifyRequest, publicOrigin: string): Error | null {
  if (!UNSAFE_METHODS.has(request.method)) return null;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin) {
    return forbidden(`a request with the session cookie must come from ${publicOrigin}`);
  }
  return null;
}

/** Sets `request.auth` from a session check; the error to answer with, if any. */
function acceptSession(request: FastifyRequest, check: SessionCheck): Error | null {
  if (!check.ok) return unauthorized(check.reason);
  const { session } = check;
  if (UNSAFE_METHODS.has(request.method) && request.headers['x-csrf-token'] !== session.csrfToken) {
    return forbidden("a request with the session cookie needs the session's X-CSRF-Token header");
  }
  request.auth = {
    user: session.user,
    tokenId: `session:${session.sessionId}`,
    scopes: null,
    sessionId: session.sessionId,
  };
  return null;
}
