/**
 * Beginning and ending browser sessions over HTTP: the cookie and the events. Every way of signing
 * in (password here, OIDC and SAML elsewhere) ends with {@link startSession}, so the cookie's flags,
 * the fixation rule (a new session, whatever cookie came with the request) and the `user.signed_in`
 * event exist once. The stored sessions themselves are src/core/sessions.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findUserById } from '../api/users/repo.js';
import type { Config } from '../config.js';
import type { ServiceContext } from '../core/service.js';
import {
  createSession,
  csrfTokenOf,
  deleteSession,
  type SessionPolicy,
  type SignInMethod,
  verifySession,
} from '../core/sessions.js';
import type { SessionRow, UserRow } from '../db/schema.js';
import type { App } from '../http/app.js';
import { SESSION_COOKIE, sessionSecretOf } from '../http/auth.js';
import { setCookieHeader } from '../lib/cookies.js';
import { notFound } from '../lib/errors.js';
import { accountChange } from './account.js';

export type { SignInMethod } from '../core/sessions.js';

export interface StartSessionOptions {
  userId: string;
  method: SignInMethod;
  /** The identity provider of an OIDC or SAML sign-in. */
  providerId?: string | null;
}

export interface StartedSession {
  user: UserRow;
  sessionId: string;
  csrfToken: string;
  /** When the session ends at the latest (`SESSION_MAX_DAYS` from now). */
  expiresAt: string;
}

export function sessionPolicy(config: Pick<Config, 'sessionIdleMs' | 'sessionMaxMs'>): SessionPolicy {
  return { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs };
}

function secureCookies(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}

/** The context of a change a user makes to their own sign-in, from a request without a token. */
export function userContext(app: App, user: UserRow): ServiceContext {
  return { db: app.db, urls: app.urls, actor: { type: 'user', user, tokenId: null, source: 'api' } };
}

/** A session as events show it (never its secret). */
export function presentSessionEvent(row: Pick<SessionRow, 'id' | 'user_id' | 'method' | 'provider_id' | 'created_at'>) {
  return {
    object: 'session' as const,
    id: row.id,
    user: row.user_id,
    method: row.method,
    providerId: row.provider_id,
    createdAt: row.created_at,
  };
}

/**
 * Signs `userId` in: a new session (its id never one the request's cookie named: a cookie set
 * before sign-in is not kept, and the session it named, if any, ends), the `bindery_session`
 * cookie on `reply`, and `user.signed_in` in the user's organizations. For every sign-in method;
 * the caller has checked who the user is.
 */
export async function startSession(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  options: StartSessionOptions,
): Promise<StartedSession> {
  const user = await findUserById(app.db, options.userId);
  if (!user) throw notFound('no such user');
  const policy = sessionPolicy(app.config);
  const previous = sessionSecretOf(request);
  const previousCheck = previous ? await verifySession(app.db, previous, policy) : null;
  const created = await accountChange(userContext(app, user), user.id, async (trx, record) => {
    if (previousCheck?.ok) await deleteSession(trx, previousCheck.session.sessionId);
    const session = await createSession(
      trx,
      {
        userId: user.id,
        method: options.method,
        providerId: options.providerId ?? null,
        userAgent: request.headers['user-agent'] ?? null,
        clientAddress: request.ip,
      },
      policy,
    );
    await record(
      'user.signed_in',
      { object: 'session', id: session.id, label: user.display_name },
      presentSessionEvent({
        id: session.id,
        user_id: user.id,
        method: options.method,
        provider_id: options.providerId ?? null,
        created_at: new Date().toISOString(),
      }),
    );
    return session;
  });
  reply.header(
    'set-cookie',
    setCookieHeader(SESSION_COOKIE, created.secret, {
      maxAge: policy.maxMs / 1000,
      secure: secureCookies(app.config),
    }),
  );
  reply.header('cache-control', 'no-store');
  return { user, sessionId: created.id, csrfToken: csrfTokenOf(created.secret), expiresAt: created.expiresAt };
}

/** Tells the browser to forget its session cookie. */
export function clearSessionCookie(app: App, reply: FastifyReply): void {
  reply.header('set-cookie', setCookieHeader(SESSION_COOKIE, '', { maxAge: 0, secure: secureCookies(app.config) }));
}
