/**
 * Sign-in through an OpenID Connect provider (`OIDC_*`): the authorization code flow with PKCE,
 * `state` and `nonce`, all checked by `openid-client` (v6). The login state (verifier, state,
 * nonce, where to go after) lives in a sealed cookie for ten minutes, so any process can take the
 * provider's answer. The account is the one of the provider's verified email.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { admitSsoUser } from '../api/sso/sign-in.js';
import type { OidcConfig } from '../config.js';
import type { App } from '../http/app.js';
import type { Role } from '../lib/schemas.js';
import { startSession } from './sessions.js';
import { clearStateCookie, readStateCookie, sameOriginPath, setStateCookie, signInFailed } from './sso-pages.js';

const COOKIE = 'bindery_oidc';

interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

const discovered = new WeakMap<App, Promise<client.Configuration>>();

/** The provider's configuration, discovered once per app (again after a failure). */
function providerConfig(app: App, oidc: OidcConfig): Promise<client.Configuration> {
  let found = discovered.get(app);
  if (!found) {
    const insecure = new URL(oidc.issuer).protocol === 'http:'; // loopback only (src/config.ts)
    found = client.discovery(new URL(oidc.issuer), oidc.clientId, oidc.clientSecret, undefined, {
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
    found.catch(() => discovered.delete(app));
    discovered.set(app, found);
  }
  return found;
}

const callbackUrl = (app: App) => `${app.config.publicUrl}/auth/oidc/callback`;

/** `GET /auth/oidc/login?returnTo=/path`: off to the provider. */
export async function startOidcLogin(
  app: App,
  request: FastifyRequest<{ Querystring: { returnTo?: string } }>,
  reply: FastifyReply,
) {
  const oidc = app.config.oidc;
  if (!oidc) return signInFailed(app, reply, 404, 'Signing in with OpenID Connect is not configured on this server.');
  const returnTo = sameOriginPath(app, request.query.returnTo);
  if (returnTo === null) return signInFailed(app, reply, 400, 'returnTo must be a path of this server.');
  let config: client.Configuration;
  try {
    config = await providerConfig(app, oidc);
  } catch (error) {
    request.log.warn({ err: error }, 'OpenID Connect discovery failed');
    return signInFailed(app, reply, 503, 'The identity provider cannot be reached. Try again later.');
  }
  const login: LoginState = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(app),
    scope: oidc.scopes.join(' '),
    state: login.state,
    nonce: login.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
    code_challenge_method: 'S256',
  });
  await setStateCookie(app, request, reply, COOKIE, login);
  return reply.code(303).header('cache-control', 'no-store').redirect(url.href, 303);
}

/** `GET /auth/oidc/callback`: the provider's answer, checked; the person signed in. */
export async function finishOidcLogin(app: App, request: FastifyRequest, reply: FastifyReply) {
  const oidc = app.config.oidc;
  if (!oidc) return signInFailed(app, reply, 404, 'Signing in with OpenID Connect is not configured on this server.');
  const login = await readStateCookie<LoginState>(app, request, COOKIE);
  clearStateCookie(app, reply, COOKIE);
  if (!login) return signInFailed(app, reply, 400, 'This sign-in expired or was not started here. Start again.');
  const query = new URL(request.url, 'http://callback').search;
  let claims: Record<string, unknown>;
  try {
    const config = await providerConfig(app, oidc);
    const tokens = await client.authorizationCodeGrant(config, new URL(`${callbackUrl(app)}${query}`), {
      pkceCodeVerifier: login.verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    if (claims.email === undefined || claims.email_verified === undefined) {
      // Many providers put the email in the UserInfo answer only.
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub as string);
      claims = {
        ...info,
        ...claims,
        email: claims.email ?? info.email,
        email_verified: claims.email_verified ?? info.email_verified,
      };
    }
  } catch (error) {
    request.log.info({ err: error }, 'OpenID Connect sign-in refused');
    const denied = error instanceof client.AuthorizationResponseError;
    return signInFailed(
      app,
      reply,
      denied ? 403 : 400,
      denied ? 'The identity provider did not sign you in.' : 'The identity provider’s answer could not be verified.',
    );
  }
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || claims.email_verified !== true) {
    return signInFailed(app, reply, 403, 'Your identity provider has not verified your email address.');
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 255) : null;
  let userId: string;
  try {
    const user = await admitSsoUser(
      app.db,
      app.urls,
      { email, displayName: name },
      oidc.organizationId
        ? { organizationId: oidc.organizationId, role: (oidc.defaultRole as Role | null) ?? undefined }
        : null,
    );
    if (!user) throw new Error('no user admitted');
    userId = user.id;
  } catch (error) {
    request.log.error({ err: error }, 'OpenID Connect sign-in could not admit the user');
    return signInFailed(
      app,
      reply,
      409,
      'You could not be signed in (is OIDC_ORGANIZATION an organization of this server?).',
    );
  }
  await startSession(app, request, reply, { userId, method: 'oidc', providerId: oidc.issuer });
  return reply.redirect(`${new URL(app.config.publicUrl).origin}${login.returnTo}`, 303);
}
