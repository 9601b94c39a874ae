/**
 * Sign-in through an organization's SAML provider (`@node-saml/node-saml`), SP-initiated:
 * `/auth/saml/{providerId}/login` sends the person to the provider with an AuthnRequest,
 * `…/acs` takes the provider's signed answer (HTTP-POST), `…/metadata` describes Bindery to the
 * provider. node-saml checks the signature (against the provider's certificate only, never one the
 * response carries), the issuer, the audience and the validity window; the recipient and replay
 * (each assertion id is accepted once, remembered until it expires) are checked here. The person
 * becomes a member of the provider's organization.
 *
 * The provider's answer is a cross-site POST, which a SameSite=Lax cookie does not follow: the
 * place to go after travels as the RelayState (checked to be a path of this server again), and
 * InResponseTo is not required, so IdP-initiated sign-ins work too.
 */
import { SAML } from '@node-saml/node-saml';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isActive, samlServiceUrls } from '../api/sso/present.js';
import { findProviderById } from '../api/sso/repo.js';
import { admitSsoUser } from '../api/sso/sign-in.js';
import type { SamlProviderRow } from '../db/schema.js';
import type { App } from '../http/app.js';
import type { Role } from '../lib/schemas.js';
import { startSession } from './sessions.js';
import { sameOriginPath, signInFailed } from './sso-pages.js';

/** Clock difference tolerated between the provider and this server. */
const CLOCK_SKEW_MS = 60_000;
/** How long an assertion id is remembered when the assertion itself names no end. */
const DEFAULT_ASSERTION_LIFETIME_MS = 60 * 60_000;

function samlOf(app: App, provider: SamlProviderRow): SAML {
  const service = samlServiceUrls(app.urls, provider.id);
  return new SAML({
    callbackUrl: service.acsURL,
    entryPoint: provider.sso_url as string,
    issuer: service.entityID,
    audience: service.entityID,
    idpCert: provider.certificate as string,
    idpIssuer: provider.entity_id as string,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: 'never' as never,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

async function activeProvider(app: App, providerId: string) {
  const provider = await findProviderById(app.db, providerId);
  return provider && isActive(provider) ? provider : null;
}

/** `GET /auth/saml/{providerId}/login?returnTo=/path` */
export async function startSamlLogin(
  app: App,
  request: FastifyRequest<{ Params: { providerId: string }; Querystring: { returnTo?: string } }>,
  reply: FastifyReply,
) {
  const provider = await activeProvider(app, request.params.providerId);
  if (!provider) return signInFailed(app, reply, 404, 'There is no such single sign-on provider here.');
  const returnTo = sameOriginPath(app, request.query.returnTo);
  if (returnTo === null) return signInFailed(app, reply, 400, 'returnTo must be a path of this server.');
  const url = await samlOf(app, provider).getAuthorizeUrlAsync(returnTo, undefined, {});
  return reply.header('cache-control', 'no-store').redirect(url, 303);
}

/** `GET /auth/saml/{providerId}/metadata`: the SP metadata an identity provider is set up from. */
export async function samlMetadata(
  app: App,
  request: FastifyRequest<{ Params: { providerId: string } }>,
  reply: FastifyReply,
) {
  const provider = await findProviderById(app.db, request.params.providerId);
  if (!provider) return signInFailed(app, reply, 404, 'There is no such single sign-on provider here.');
  // A pending provider has no certificate of its own yet; the SP metadata does not need it.
  const saml = samlOf(app, {
    ...provider,
    certificate: provider.certificate ?? 'pending',
    sso_url: provider.sso_url ?? 'https://pending.invalid/',
    entity_id: provider.entity_id ?? 'pending',
  });
  return reply.type('application/samlmetadata+xml; charset=utf-8').send(saml.generateServiceProviderMetadata(null));
}

interface ParsedAssertion {
  Assertion?: {
    $?: { ID?: string };
    Subject?: Array<{
      SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: Record<string, string> }> }>;
    }>;
    Conditions?: Array<{ $?: Record<string, string> }>;
  };
}

/** The assertion's id, its recipients and when it ends (from the verified assertion node-saml parsed). */
function assertionFacts(parsed: ParsedAssertion) {
  const assertion = parsed.Assertion;
  const confirmations = (assertion?.Subject?.[0]?.SubjectConfirmation ?? []).flatMap(
    (c) => c.SubjectConfirmationData ?? [],
  );
  const ends = [...confirmations.map((d) => d.$?.NotOnOrAfter), assertion?.Conditions?.[0]?.$?.NotOnOrAfter].filter(
    (v): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  );
  return {
    id: assertion?.$?.ID ?? null,
    recipients: confirmations.map((d) => d.$?.Recipient).filter((r): r is string => typeof r === 'string'),
    expiresAt:
      ends.length > 0 ? Math.max(...ends.map((e) => Date.parse(e))) : Date.now() + DEFAULT_ASSERTION_LIFETIME_MS,
  };
}

/** `POST /auth/saml/{providerId}/acs` (form: SAMLResponse, RelayState) */
export async function samlAssertionConsumer(
  app: App,
  request: FastifyRequest<{ Params: { providerId: string }; Body: { SAMLResponse?: string; RelayState?: string } }>,
  reply: FastifyReply,
) {
  const provider = await activeProvider(app, request.params.providerId);
  if (!provider) return signInFailed(app, reply, 404, 'There is no such single sign-on provider here.');
  const { SAMLResponse, RelayState } = request.body ?? {};
  if (typeof SAMLResponse !== 'string' || SAMLResponse === '') {
    return signInFailed(app, reply, 400, 'The identity provider sent no SAML response.');
  }
  const acsURL = samlServiceUrls(app.urls, provider.id).acsURL;
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await samlOf(app, provider).validatePostResponseAsync({ SAMLResponse }));
  } catch (error) {
    request.log.info({ err: error, providerId: provider.id }, 'SAML response refused');
    return signInFailed(app, reply, 403, 'The identity provider’s answer could not be verified.');
  }
  if (!profile) return signInFailed(app, reply, 403, 'The identity provider’s answer signs no one in.');
  const facts = assertionFacts((profile.getAssertion?.() ?? {}) as ParsedAssertion);
  if (facts.recipients.length === 0 || facts.recipients.some((r) => r !== acsURL)) {
    request.log.info({ providerId: provider.id, recipients: facts.recipients }, 'SAML assertion for another recipient');
    return signInFailed(app, reply, 403, 'The identity provider’s answer was meant for another service.');
  }
  const email = [profile.email, profile.mail, profile.nameID].find(
    (v): v is string => typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v.trim()),
  );
  if (!email) return signInFailed(app, reply, 403, 'The identity provider did not give your email address.');
  if (!facts.id) return signInFailed(app, reply, 403, 'The identity provider’s assertion has no id.');
  const displayName = [profile.displayName, profile.name, profile.cn].find((v) => typeof v === 'string' && v.trim());
  let userId: string;
  try {
    const expires = new Date(Math.max(facts.expiresAt, Date.now()) + CLOCK_SKEW_MS).toISOString();
    const user = await admitSsoUser(
      app.db,
      app.urls,
      { email: email.trim(), displayName: (displayName as string | undefined)?.trim().slice(0, 255) ?? null },
      {
        organizationId: provider.organization_id,
        role: provider.default_role as Role | null,
        teamId: provider.default_team_id,
      },
      { providerId: provider.id, assertionId: facts.id, expiresAt: expires },
    );
    if (!user) return signInFailed(app, reply, 403, 'This answer of the identity provider was already used.');
    userId = user.id;
  } catch (error) {
    request.log.error({ err: error, providerId: provider.id }, 'SAML sign-in could not admit the user');
    return signInFailed(app, reply, 409, 'You could not be signed in. Try again.');
  }
  await startSession(app, request, reply, { userId, method: 'saml', providerId: provider.id });
  const returnTo = sameOriginPath(app, RelayState) ?? sameOriginPath(app, undefined);
  return reply.redirect(`${new URL(app.config.publicUrl).origin}${returnTo}`, 303);
}
