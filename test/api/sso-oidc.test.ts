/**
 * Sign-in through OpenID Connect against a real provider (`oidc-provider` on loopback), through
 * the whole redirect flow as a browser makes it: Bindery's login → the provider's login and consent
 * pages → Bindery's callback → a session that authenticates `/v1/user`. The checks of the answer
 * (state, nonce, a verified email), returnTo, and membership of OIDC_ORGANIZATION.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { Browser, formOf, freePort, type Hop, startOidcProvider, type TestOidcProvider } from '../helpers/sso.js';

let port: number;
let base: string;
let provider: TestOidcProvider;
let harness: Harness;
let orgId: string;

const suffix = Math.random().toString(36).slice(2, 8);
const accounts = {
  ada: { email: `ada-${suffix}@example.test`, email_verified: true, name: 'Ada Lovelace' },
  eve: { email: `eve-${suffix}@example.test`, email_verified: false, name: 'Eve' },
};

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(`${base}/auth/oidc/callback`, accounts);
  harness = await createHarness({
    env: {
      PUBLIC_URL: base,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: 'Test provider',
    },
  });
  await harness.app.listen({ port, host: '127.0.0.1' });
  const owner = await findOrCreateUser(harness.db, `owner-${suffix}@example.test`, 'Owner');
  orgId = (await createOrganization(harness.db, { title: 'Signed in by OIDC' }, owner.id)).id;
});
afterAll(async () => {
  await harness?.close();
  await provider?.close();
});

/** Logs `account` in at the provider from its login page, then consents; the hops to Bindery's callback. */
async function atProvider(browser: Browser, hops: Hop[], account: string): Promise<Hop[]> {
  let page = hops.at(-1) as Hop;
  const seen: Hop[] = [];
  for (let step = 0; step < 4 && page.status === 200; step++) {
    const form = formOf(page);
    const fields = form.fields.prompt === 'login' ? { ...form.fields, login: account, password: 'any' } : form.fields;
    const answer = await browser.request(form.action, { form: fields });
    const more = answer.location
      ? await browser.follow(answer.location, (next) => next.startsWith(`${base}/auth/oidc/callback`))
      : [];
    seen.push(answer, ...more);
    page = (more.at(-1) ?? answer) as Hop;
    const next = page.location ?? '';
    if (next.startsWith(`${base}/auth/oidc/callback`)) return seen;
  }
  throw new Error(`the provider did not send the browser back: ${JSON.stringify(seen.map((h) => [h.url, h.status]))}`);
}

/** The whole flow for `account`; `tamper` may change the URL to the provider or the callback. */
async function signIn(
  account: string,
  options: {
    returnTo?: string;
    toProvider?: (url: URL) => void;
    toCallback?: (url: URL) => void;
    browser?: Browser;
  } = {},
) {
  const browser = options.browser ?? new Browser();
  const login = `${base}/auth/oidc/login${options.returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(options.returnTo)}`}`;
  const start = await browser.request(login);
  if (start.status !== 303) return { browser, start, callback: null };
  const to = new URL(start.location as string);
  expect(to.origin).toBe(provider.issuer);
  expect(to.searchParams.get('code_challenge_method')).toBe('S256');
  expect(to.searchParams.get('state')).toBeTruthy();
  expect(to.searchParams.get('nonce')).toBeTruthy();
  options.toProvider?.(to);
  const hops = await browser.follow(to.href);
  const seen = await atProvider(browser, hops, account);
  const back = new URL((seen.at(-1) as Hop).location as string);
  options.toCallback?.(back);
  const callback = await browser.request(back.href);
  return { browser, start, callback };
}

async function whoAmI(browser: Browser) {
  const cookie = browser.cookies(base).get('bindery_session');
  if (!cookie) return null;
  const res = await fetch(`${base}/v1/user`, { headers: { cookie: `bindery_session=${cookie}` } });
  return res.status === 200 ? ((await res.json()) as { id: string; email: string; displayName: string }) : null;
}

describe('OpenID Connect sign-in', () => {
  it('signs a person in through the whole flow and sends them where they were going', async () => {
    const { browser, callback } = await signIn('ada', { returnTo: '/docs?x=1' });
    expect(callback?.status).toBe(303);
    expect(callback?.location).toBe(`${base}/docs?x=1`);
    const me = await whoAmI(browser);
    expect(me).toMatchObject({ email: accounts.ada.email, displayName: 'Ada Lovelace' });
    // The login state was used once and is gone.
    expect(browser.cookies(base).has('bindery_oidc')).toBe(false);
    // Again: the same user, not a new one; without returnTo, the root.
    const again = await signIn('ada');
    expect(again.callback?.location).toBe(`${base}/`);
    expect((await whoAmI(again.browser))?.id).toBe(me?.id);
  });

  it('refuses a tampered state, a wrong nonce and an unverified email, signing no one in', async () => {
    const tamperedState = await signIn('ada', { toCallback: (url) => url.searchParams.set('state', 'forged') });
    expect(tamperedState.callback?.status).toBe(400);
    expect(tamperedState.callback?.text).toContain('Sign-in failed');
    expect(await whoAmI(tamperedState.browser)).toBeNull();

    const wrongNonce = await signIn('ada', { toProvider: (url) => url.searchParams.set('nonce', 'not-the-one-sent') });
    expect(wrongNonce.callback?.status).toBe(400);
    expect(await whoAmI(wrongNonce.browser)).toBeNull();

    const unverified = await signIn('eve');
    expect(unverified.callback?.status).toBe(403);
    expect(unverified.callback?.text).toContain('not verified your email');
    expect(await whoAmI(unverified.browser)).toBeNull();

    // A callback nobody started here (no login cookie).
    const stray = await new Browser().request(`${base}/auth/oidc/callback?code=x&state=y`);
    expect(stray.status).toBe(400);
    // The provider refusing (the person cancelled) is a 4xx page too.
    const browser = new Browser();
    await browser.request(`${base}/auth/oidc/login`);
    const denied = await browser.request(`${base}/auth/oidc/callback?error=access_denied&state=whatever`);
    expect(denied.status).toBeGreaterThanOrEqual(400);
    expect(denied.status).toBeLessThan(500);
  });

  it('refuses a returnTo outside this server', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      `http://127.0.0.1:${port + 1}/`,
    ]) {
      const res = await new Browser().request(`${base}/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(res.status, returnTo).toBe(400);
      expect(res.location).toBeNull();
    }
    // The server's own origin, written whole, is a path of it.
    const own = await new Browser().request(`${base}/auth/oidc/login?returnTo=${encodeURIComponent(`${base}/here`)}`);
    expect(own.status).toBe(303);
  });

  it('makes people members of OIDC_ORGANIZATION with OIDC_DEFAULT_ROLE, recorded in its audit log', async () => {
    const oidc = harness.app.config.oidc;
    if (!oidc) throw new Error('OIDC is configured');
    // The organization exists only once the server runs: set as OIDC_ORGANIZATION and OIDC_DEFAULT_ROLE would.
    oidc.organizationId = orgId;
    oidc.defaultRole = 'edit';
    try {
      const { browser, callback } = await signIn('ada');
      expect(callback?.status).toBe(303);
      const me = await whoAmI(browser);
      const cookie = browser.cookies(base).get('bindery_session');
      const member = await fetch(`${base}/v1/orgs/${orgId}/members/${me?.id}`, {
        headers: { cookie: `bindery_session=${cookie}` },
      });
      expect(member.status).toBe(200);
      expect(await member.json()).toMatchObject({ role: 'edit', sso: true });
      const owner = await harness.db
        .selectFrom('members')
        .select('user_id')
        .where('organization_id', '=', orgId)
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      const { token } = await (await import('../../src/core/tokens.js')).createToken(harness.db, owner.user_id, {});
      const { Client } = await import('../helpers/app.js');
      const actions = (await auditEvents(new Client(harness.app, token), orgId)).map((e) => e.action);
      expect(actions).toContain('member.added');
      expect(actions).toContain('user.signed_in');
    } finally {
      oidc.organizationId = null;
      oidc.defaultRole = null;
    }
  });
});
