/**
 * Authentication: one `onRequest` hook. Every route is private unless its config says
 * `public: true`; every private route must declare the token scope it needs (`config.scope`),
 * which is checked here. Who may touch which resource is decided later, in `src/permissions`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bearerSecret, type TokenCheck, verifyToken } from '../core/tokens.js';
import type { UserRow } from '../db/schema.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { type Scope, scopeAllows } from '../lib/scopes.js';

export interface Authenticated {
  user: UserRow;
  tokenId: string;
  scopes: ReadonlySet<string> | null;
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
    const secret = header ? bearerSecret(header) : null;
    if (!secret) return done(unauthorized('an "Authorization: Bearer <token>" header is required'));
    const scope = config.scope;
    const accept = (check: TokenCheck) => {
      if (!check.ok) return done(unauthorized(check.reason));
      request.auth = check.token;
      if (scope && !scopeAllows(check.token.scopes, scope)) {
        return done(forbidden(`the access token lacks the scope ${scope}`));
      }
      done();
    };
    const check = verifyToken(app.db, secret);
    if ('then' in check) check.then(accept, done);
    else accept(check);
  });
}
