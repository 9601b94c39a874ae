/** What a route hands to a service function: the acting user of the request, the app's database and URLs. */
import type { FastifyRequest } from 'fastify';
import type { Actor, ServiceContext } from '../core/service.js';
import type { App } from './app.js';
import { caller } from './auth.js';

/** The acting user of an authenticated API request. */
export function actorOf(request: FastifyRequest): Actor {
  const auth = caller(request);
  // A session is no token: its changes are recorded without one.
  return { type: 'user', user: auth.user, tokenId: auth.sessionId ? null : auth.tokenId, source: 'api' };
}

/** The context a route hands to a service function. */
export function serviceContext(app: App, request: FastifyRequest): ServiceContext {
  return { db: app.db, urls: app.urls, actor: actorOf(request) };
}
