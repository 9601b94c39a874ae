/**
 * Sign-in through an organization's SAML provider, at the assertion consumer of a listening
 * server: responses signed by a test identity provider with a key and self-signed certificate made
 * here (xml-crypto, which node-saml itself uses). A valid one signs the person in and makes them a
 * member; a wrong signature, audience, recipient, an expired or a replayed one signs no one in.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { selfSignedKeyPair, type TestKeyPair } from '../helpers/certificate.js';
import { Browser, freePort } from '../helpers/sso.js';

let harness: Harness;
let base: string;
let org: Awaited<ReturnType<Harness['org']>>;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
const idp = selfSignedKeyPair('Test IdP');
const IDP_ENTITY = 'https://idp.example.test/metadata';

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  harness = await createHarness({ env: { PUBLIC_URL: base } });
  await harness.app.listen({ port, host: '127.0.0.1' });
  org = await harness.org();
  const created = await org.admin.client.post(`/v1/orgs/${org.id}/saml`, {
    label: 'Corporate',
    entityID: IDP_ENTITY,
    ssoURL: 'https://idp.example.test/sso',
    certificate: idp.certificate,
    defaultRole: 'comment',
  });
  expect(created.status).toBe(201);
  provider = created.body;
});
afterAll(async () => harness?.close());

interface Options {
  email?: string;
  audience?: string;
  recipient?: string;
  notOnOrAfter?: Date;
  keys?: TestKeyPair;
  assertionId?: string;
}

/** A SAML Response whose assertion is signed with `keys` (the provider's by default). */
function samlResponse(options: Options = {}): string {
  const now = new Date();
  const end = (options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const start = new Date(now.getTime() - 60_000).toISOString();
  const id = options.assertionId ?? `_${randomUUID()}`;
  const recipient = options.recipient ?? provider.service.acsURL;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${IDP_ENTITY}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email ?? 'grace@example.test'}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${end}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${start}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${options.audience ?? provider.service.entityID}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>Grace Hopper</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    '</saml:Assertion>';
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${recipient}">` +
    `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${IDP_ENTITY}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `${assertion}</samlp:Response>`;
  const keys = options.keys ?? idp;
  const sig = new SignedXml({
    privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return Buffer.from(sig.getSignedXml()).toString('base64');
}

async function post(response: string, relayState?: string) {
  const browser = new Browser();
  const hop = await browser.request(provider.service.acsURL, {
    form: { SAMLResponse: response, ...(relayState === undefined ? {} : { RelayState: relayState }) },
  });
  return { hop, session: browser.cookies(base).get('bindery_session') ?? null };
}

/** Sessions of this file's organization's people (on PostgreSQL other test files sign people in too). */
async function sessionsCount() {
  const row = await harness.db
    .selectFrom('sessions')
    .innerJoin('members', 'members.user_id', 'sessions.user_id')
    .where('members.organization_id', '=', org.id)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

describe('SAML sign-in', () => {
  it('serves the SP metadata as XML and starts a sign-in at the provider', async () => {
    const metadata = await fetch(`${base}/auth/saml/${provider.id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toContain('xml');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
    const start = await new Browser().request(`${provider.service.startURL}?returnTo=/docs`);
    expect(start.status).toBe(303);
    const to = new URL(start.location as string);
    expect(`${to.origin}${to.pathname}`).toBe('https://idp.example.test/sso');
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(to.searchParams.get('RelayState')).toBe('/docs');
    expect((await new Browser().request(`${provider.service.startURL}?returnTo=https://evil.example/`)).status).toBe(
      400,
    );
    expect((await new Browser().request(`${base}/auth/saml/nope/login`)).status).toBe(404);
  });

  it('signs a person in with a valid signed response and makes them a member; the same response again is refused', async () => {
    const email = `grace-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const response = samlResponse({ email });
    const { hop, session } = await post(response, '/docs');
    expect(hop.status).toBe(303);
    expect(hop.location).toBe(`${base}/docs`);
    expect(session).toBeTruthy();
    const me = await fetch(`${base}/v1/user`, { headers: { cookie: `bindery_session=${session}` } });
    expect(me.status).toBe(200);
    const user = (await me.json()) as { id: string; email: string; displayName: string };
    expect(user).toMatchObject({ email, displayName: 'Grace Hopper' });
    const member = await org.admin.client.get(`/v1/orgs/${org.id}/members/${user.id}`);
    expect(member.body).toMatchObject({ role: 'comment', sso: true });
    const actions = (await auditEvents(org.admin.client, org.id)).map((e) => e.action);
    expect(actions).toContain('member.added');
    expect(actions).toContain('user.signed_in');

    const before = await sessionsCount();
    const replay = await post(response, '/docs');
    expect(replay.hop.status).toBe(403);
    expect(replay.hop.text).toContain('already used');
    expect(replay.session).toBeNull();
    expect(await sessionsCount()).toBe(before);
  });

  it('refuses a wrong signature, audience, recipient and an expired response, signing no one in', async () => {
    const before = await sessionsCount();
    const cases: Array<[string, Options]> = [
      ['wrong signature', { keys: selfSignedKeyPair('Impostor') }],
      ['wrong audience', { audience: 'https://another-sp.example.test/metadata' }],
      ['wrong recipient', { recipient: 'https://another-sp.example.test/acs' }],
      ['expired', { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }],
    ];
    for (const [what, options] of cases) {
      const { hop, session } = await post(samlResponse(options));
      expect(hop.status, what).toBe(403);
      expect(hop.text, what).toContain('Sign-in failed');
      expect(session, what).toBeNull();
    }
    // Tampered after signing: the email changed in the signed assertion.
    const signed = Buffer.from(samlResponse({ email: 'grace@example.test' }), 'base64').toString('utf8');
    const tampered = Buffer.from(signed.replace('grace@example.test', 'admin@example.test')).toString('base64');
    expect((await post(tampered)).hop.status).toBe(403);
    // Not a SAML response at all, or none.
    expect((await post(Buffer.from('<nope/>').toString('base64'))).hop.status).toBe(403);
    expect((await new Browser().request(provider.service.acsURL, { form: {} })).status).toBe(400);
    expect(await sessionsCount()).toBe(before);
  });
});
