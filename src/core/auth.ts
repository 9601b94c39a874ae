/**
 * Authentication: one `onRequest` hook. Every route is private unless its config says
 * `public: true`; every private route must declare the token scope it needs (`config.scope`),
 * which is checked here. Who may touch which resource is decided later, in `src/permissions`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { forbidden, unauthorized } from './errors.js';
import { type Scope, scopeAllows } from './scopes.js';
import { verifyToken } from './tokens.js';

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

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const config = route.config as { public?: boolean; scope?: Scope } | undefined;
    if (!config?.public && !config?.scope && route.url.startsWith('/v1')) {
      throw new Error(`route ${route.method} ${route.url} declares neither public nor a scope`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Only the API is private; the reference page (/docs) and health checks are open.
    if (config.public || request.is404 || !request.routeOptions.url?.startsWith('/v1')) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('an "Authorization: Bearer <token>" header is required');
    const check = await verifyToken(app.db, match[1]);
    if (!check.ok) throw unauthorized(check.reason);
    request.auth = check.token;
    if (config.scope && !scopeAllows(check.token.scopes, config.scope)) {
      throw forbidden(`the access token lacks the scope ${config.scope}`);
    }
  });
}
