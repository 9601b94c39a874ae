/**
 * `/auth/*`: signing in and out of the browser session, and resetting a password. Each form
 * endpoint takes JSON (the web app) or a plain form post (`application/x-www-form-urlencoded`, the
 * pages of src/auth/pages.ts, which work without JavaScript): JSON callers get JSON, forms get a
 * redirect or a small page. A POST whose `Origin` is another site's is refused (403): another site
 * must not sign a browser in or out.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { presentUser } from '../api/users/present.js';
import { verifySession } from '../core/sessions.js';
import type { App } from '../http/app.js';
import { sessionSecretOf } from '../http/auth.js';
import { ApiError, badRequest, forbidden, unauthorized } from '../lib/errors.js';
import { UserSchema } from '../lib/schemas.js';
import { sameOriginPath } from '../lib/urls.js';
import { basePath } from '../pages/html.js';
import { loginPage, messagePage, resetPage, type SsoLink, sendPage } from './pages.js';
import { confirmPasswordReset, requestPasswordReset, signInWithPassword, signOut } from './service.js';
import { clearSessionCookie, sessionPolicy } from './sessions.js';

const FORM_BODY_LIMIT = 16 * 1024;
const Email = Type.String({ minLength: 1, maxLength: 320 });
const Password = Type.String({ maxLength: 4096 });
const options = { config: { public: true } } as const;

const LoginBody = Type.Object({ email: Email, password: Password, returnTo: Type.Optional(Type.String()) });
const ResetBody = Type.Object({ email: Email });
const ConfirmBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password });
const SessionAnswer = Type.Object({
  user: UserSchema,
  csrfToken: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

const AuthStatus = Type.Object({
  session: Type.Union([SessionAnswer, Type.Null()]),
  sso: Type.Array(Type.Object({ name: Type.String(), loginUrl: Type.String() })),
});

function isForm(request: FastifyRequest): boolean {
  return String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** The single sign-on configured for the whole server (OpenID Connect), shown on sign-in screens. */
function ssoLinks(app: App, base: string): SsoLink[] {
  const oidc = app.config.oidc;
  if (!oidc) return [];
  return [{ label: oidc.name, href: `${base}/auth/oidc/login` }];
}

export default async function authRoutes(app: App): Promise<void> {
  const base = basePath(app);
  const publicOrigin = new URL(app.config.publicUrl).origin;
  const policy = sessionPolicy(app.config);

  // Forms post URL-encoded fields: parsed into an object here, then validated as the JSON bodies are.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addHook('onRequest', async (request) => {
    const origin = request.headers.origin;
    if (request.method === 'POST' && origin !== undefined && origin !== publicOrigin) {
      throw forbidden(`sign-in requests must come from ${publicOrigin}`);
    }
  });

  const returnToOf = (value: string | undefined): string => {
    const path = sameOriginPath(value);
    if (path === null) throw badRequest('returnTo must be a path on this server, such as /spaces');
    return path;
  };

  app.get(
    '/auth/login',
    { ...options, schema: { hide: true, querystring: Type.Object({ returnTo: Type.Optional(Type.String()) }) } },
    async (request, reply) =>
      sendPage(reply, 200, loginPage({ base, returnTo: returnToOf(request.query.returnTo), sso: ssoLinks(app, base) })),
  );

  app.post('/auth/login', { ...options, schema: { hide: true, body: LoginBody } }, async (request, reply) => {
    const form = isForm(request);
    const returnTo = returnToOf(request.body.returnTo);
    try {
      const session = await signInWithPassword(app, request, reply, request.body);
      if (form) return reply.code(303).header('location', returnTo).send();
      return { user: presentUser(session.user, app.urls) };
    } catch (error) {
      if (!form || !(error instanceof ApiError) || (error.statusCode !== 401 && error.statusCode !== 429)) {
        throw error;
      }
      const message =
        error.statusCode === 429
          ? 'Too many failed attempts. Wait a few minutes, then try again.'
          : 'The email or password is not right.';
      reply.headers(error.headers);
      return sendPage(
        reply,
        error.statusCode,
        loginPage({ base, returnTo, email: request.body.email, error: message, sso: ssoLinks(app, base) }),
      );
    }
  });

  app.get(
    '/auth/session',
    { ...options, schema: { hide: true, response: { 200: SessionAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const secret = sessionSecretOf(request);
      if (!secret) throw unauthorized('not signed in');
      const check = await verifySession(app.db, secret, policy);
      if (!check.ok) throw unauthorized(check.reason);
      const { session } = check;
      return { user: presentUser(session.user, app.urls), csrfToken: session.csrfToken, expiresAt: session.expiresAt };
    },
  );

  // What a client needs before anyone signs in: the session if there is one (200 either way, so a
  // browser app asking on start logs no failed request), and the ways in besides a password.
  app.get(
    '/auth/status',
    { ...options, schema: { hide: true, response: { 200: AuthStatus } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const secret = sessionSecretOf(request);
      const check = secret ? await verifySession(app.db, secret, policy) : null;
      const session = check?.ok
        ? {
            user: presentUser(check.session.user, app.urls),
            csrfToken: check.session.csrfToken,
            expiresAt: check.session.expiresAt,
          }
        : null;
      return { session, sso: ssoLinks(app, base).map((link) => ({ name: link.label, loginUrl: link.href })) };
    },
  );

  app.post('/auth/logout', { ...options, schema: { hide: true } }, async (request, reply) => {
    await signOut(app, request);
    clearSessionCookie(app, reply);
    reply.header('cache-control', 'no-store');
    if (isForm(request)) return reply.code(303).header('location', `${base}/auth/login`).send();
    return reply.code(204).send();
  });

  app.get(
    '/auth/reset',
    { ...options, schema: { hide: true, querystring: Type.Object({ token: Type.Optional(Type.String()) }) } },
    async (request, reply) => sendPage(reply, 200, resetPage({ base, token: request.query.token })),
  );

  app.post('/auth/password-reset', { ...options, schema: { hide: true, body: ResetBody } }, async (request, reply) => {
    await requestPasswordReset(app, request.body.email);
    const text =
      'If this email belongs to an account, a link to set a new password is on its way. It works once, for 30 minutes.';
    if (isForm(request)) return sendPage(reply, 202, messagePage('Check your email', text));
    return reply.code(202).send({ message: text });
  });

  app.post(
    '/auth/password-reset/confirm',
    { ...options, schema: { hide: true, body: ConfirmBody } },
    async (request, reply) => {
      const form = isForm(request);
      try {
        await confirmPasswordReset(app, request, request.body);
      } catch (error) {
        if (!form || !(error instanceof ApiError) || error.statusCode !== 400) throw error;
        return sendPage(
          reply,
          400,
          resetPage({
            base,
            token: request.body.token,
            error: `${error.message[0]?.toUpperCase()}${error.message.slice(1)}.`,
          }),
        );
      }
      if (form) {
        return sendPage(
          reply,
          200,
          messagePage('Password set', 'Your new password is set, and your other sessions have ended.', {
            href: `${base}/auth/login`,
            label: 'Sign in',
          }),
        );
      }
      return reply.code(204).send();
    },
  );
}
