/**
 * The single sign-on routes, outside the API: OpenID Connect (`/auth/oidc/…`, when configured) and
 * each organization's SAML providers (`/auth/saml/{providerId}/…`). They answer redirects, SAML
 * metadata or a small page saying why a sign-in failed; never a token-authenticated API answer.
 */
import type { App } from '../http/app.js';
import { finishOidcLogin, startOidcLogin } from './oidc.js';
import { samlAssertionConsumer, samlMetadata, startSamlLogin } from './saml.js';

/** A SAML response is a signed XML document, base64'd in a form field: generous, but bounded. */
const SAML_BODY_LIMIT = 512 * 1024;

const options = { config: { public: true }, schema: { hide: true } };

type ProviderRoute = { Params: { providerId: string }; Querystring: { returnTo?: string } };

export async function ssoSignInRoutes(app: App): Promise<void> {
  app.get<{ Querystring: { returnTo?: string } }>('/auth/oidc/login', options, (request, reply) =>
    startOidcLogin(app, request, reply),
  );
  app.get('/auth/oidc/callback', options, (request, reply) => finishOidcLogin(app, request, reply));
  app.get<ProviderRoute>('/auth/saml/:providerId/login', options, (request, reply) =>
    startSamlLogin(app, request, reply),
  );
  app.get<ProviderRoute>('/auth/saml/:providerId/metadata', options, (request, reply) =>
    samlMetadata(app, request, reply),
  );
  // The provider posts its answer URL-encoded: a parser for this route only, not the API's.
  await app.register(async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: SAML_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    forms.post<{ Params: { providerId: string }; Body: { SAMLResponse?: string; RelayState?: string } }>(
      '/auth/saml/:providerId/acs',
      options,
      (request, reply) => samlAssertionConsumer(app, request, reply),
    );
  });
}
