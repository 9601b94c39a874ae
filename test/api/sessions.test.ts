/**
 * Browser sessions through a real listening server with `fetch`: the cookie and its flags, CSRF and
 * Origin on unsafe methods, sign-out, expiry, fixation, the same 401 for an unknown email and a
 * wrong password, the attempt limit, and the events in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateEverything } from '../../src/core/cache.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { givePassword, login, PASSWORD, sessionCookie, sessionSetCookie, signIn } from '../helpers/sessions.js';

let h: Harness;
let base: string;
const ORIGIN = 'http://bindery.test';

beforeAll(async () => {
  // Client addresses from X-Forwarded-For, so that the attempt limit can be tested per address.
  h = await createHarness({ env: { TRUST_PROXY: 'true' } });
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => h?.close());

/** A member (admin) of a new organization, with a password. */
async function account(): Promise<{ orgId: string; admin: TestUser; email: string }> {
  const org = await h.org();
  await givePassword(h.db, org.admin.user.id);
  return { orgId: org.id, admin: org.admin, email: org.admin.user.email };
}

const from = (address: string) => ({ 'x-forwarded-for': address });
const titleOf = async (orgId: string) =>
  (await h.db.selectFrom('organizations').select('title').where('id', '=', orgId).executeTakeFirstOrThrow()).title;

describe('signing in', () => {
  it('answers the user and sets an HttpOnly, Lax, site-wide cookie (not Secure over http)', async () => {
    const { email, admin } = await account();
    const res = await login(base, email.toUpperCase());
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).user).toMatchObject({ object: 'user', id: admin.user.id, email });
    const line = sessionSetCookie(res) as string;
    expect(line).toMatch(/^bindery_session=bss_[\w-]{20,};/);
    const flags = line.split(';').map((p) => p.trim().toLowerCase());
    expect(flags).toEqual(expect.arrayContaining(['httponly', 'path=/', 'samesite=lax', `max-age=${30 * 86400}`]));
    expect(flags).not.toContain('secure');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await createHarness({ env: { PUBLIC_URL: 'https://docs.example.test' } });
    try {
      const url = await secure.app.listen({ port: 0, host: '127.0.0.1' });
      const { user } = await secure.user();
      await givePassword(secure.db, user.id);
      const res = await login(url, user.email);
      expect(res.status).toBe(200);
      expect((sessionSetCookie(res) as string).split(';').map((p) => p.trim())).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('gives the same 401 for an unknown email and a wrong password, in about the same time', async () => {
    const { email } = await account();
    const timed = async (e: string, p: string) => {
      const start = performance.now();
      const res = await login(base, e, p, from('10.1.0.1'));
      return { res, ms: performance.now() - start, body: await res.text() };
    };
    const wrong = await timed(email, 'not the password');
    const unknown = await timed(`nobody-${newId(6)}@example.test`, 'not the password');
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(JSON.parse(wrong.body)).toEqual({ error: { code: 401, message: 'the email or password is not right' } });
    expect(sessionSetCookie(wrong.res)).toBeUndefined();
    // Both verify an Argon2id hash (the unknown email a dummy one): neither answers much faster.
    const w = [wrong.ms];
    const u = [unknown.ms];
    for (let i = 0; i < 2; i++) {
      w.push((await timed(email, 'still not it')).ms);
      u.push((await timed(`nobody-${newId(6)}@example.test`, 'still not it')).ms);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] as number;
    expect(median(u)).toBeGreaterThan(median(w) * 0.4);
    expect(median(w)).toBeGreaterThan(median(u) * 0.4);
  });

  it('refuses a user without a password (SSO only) with the same 401', async () => {
    const { user } = await h.user();
    const res = await login(base, user.email, PASSWORD, from('10.1.0.2'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 401, message: 'the email or password is not right' } });
  });

  it('refuses bad input with a 400 envelope', async () => {
    for (const body of [{}, { email: 'a@b.test' }, { email: '', password: 'x' }, { email: 1, password: 'x' }]) {
      const res = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.code).toBe(400);
    }
  });

  it('never keeps a cookie sent before sign-in (fixation), and ends the session it named', async () => {
    const { email } = await account();
    const planted = 'bindery_session=bss_plantedByAnAttackerXXXXXXXXXXXXXXXXXXXXXXX';
    const res = await login(base, email, PASSWORD, { cookie: planted });
    expect(res.status).toBe(200);
    const fresh = sessionCookie(res);
    expect(fresh).not.toBe(planted);
    expect((await fetch(`${base}/v1/user`, { headers: { cookie: planted } })).status).toBe(401);

    const again = await login(base, email, PASSWORD, { cookie: fresh });
    const newer = sessionCookie(again);
    expect(newer).not.toBe(fresh);
    expect((await fetch(`${base}/v1/user`, { headers: { cookie: fresh } })).status).toBe(401);
    expect((await fetch(`${base}/v1/user`, { headers: { cookie: newer } })).status).toBe(200);
  });

  it('refuses a sign-in posted from another site', async () => {
    const { email } = await account();
    const res = await login(base, email, PASSWORD, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(sessionSetCookie(res)).toBeUndefined();
  });
});

describe('the session', () => {
  it('GET /auth/session answers the user, the CSRF token and the expiry; 401 without a session', async () => {
    const { email, admin } = await account();
    const browser = await signIn(base, email);
    const res = await fetch(`${base}/auth/session`, { headers: { cookie: browser.cookie } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.user.id).toBe(admin.user.id);
    expect(body.csrfToken).toMatch(/^[\w-]{40,}$/);
    const expires = Date.parse(body.expiresAt);
    expect(expires).toBeGreaterThan(Date.now() + 13.9 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000 + 1000);
    const none = await fetch(`${base}/auth/session`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.code).toBe(401);
    expect((await fetch(`${base}/auth/session`, { headers: { cookie: 'bindery_session=bss_nope' } })).status).toBe(401);
  });

  it('authenticates /v1 reads as its user, with every scope', async () => {
    const { email, admin, orgId } = await account();
    const browser = await signIn(base, email);
    const me = await browser.fetch('/v1/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).id).toBe(admin.user.id);
    expect((await browser.fetch(`/v1/orgs/${orgId}/members`)).status).toBe(200);
  });

  it('refuses an unsafe method without the CSRF token, or with a wrong one, and changes nothing', async () => {
    const { email, orgId, admin } = await account();
    const browser = await signIn(base, email);
    const before = await titleOf(orgId);
    for (const headers of [{ 'x-csrf-token': '' }, { 'x-csrf-token': 'wrong' }]) {
      const res = await browser.fetch(`/v1/orgs/${orgId}`, { method: 'PATCH', body: { title: 'Hijacked' }, headers });
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error).toMatchObject({ code: 403, message: expect.stringMatching(/CSRF/) });
    }
    const noHeader = await fetch(`${base}/v1/orgs/${orgId}`, {
      method: 'PATCH',
      headers: { cookie: browser.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hijacked' }),
    });
    expect(noHeader.status).toBe(403);
    const token = await h.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', admin.user.id)
      .executeTakeFirstOrThrow();
    const del = await fetch(`${base}/v1/user/tokens/${token.id}`, {
      method: 'DELETE',
      headers: { cookie: browser.cookie },
    });
    expect(del.status).toBe(403);
    expect(await titleOf(orgId)).toBe(before);
    expect((await admin.client.get('/v1/user')).status).toBe(200);
  });

  it("refuses an unsafe method from another origin even with the token, and accepts PUBLIC_URL's or none", async () => {
    const { email, orgId } = await account();
    const browser = await signIn(base, email);
    const before = await titleOf(orgId);
    const evil = await browser.fetch(`/v1/orgs/${orgId}`, {
      method: 'PATCH',
      body: { title: 'Hijacked' },
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as any).error.code).toBe(403);
    expect(await titleOf(orgId)).toBe(before);
    const same = await browser.fetch(`/v1/orgs/${orgId}`, {
      method: 'PATCH',
      body: { title: 'Renamed by cookie' },
      headers: { origin: ORIGIN },
    });
    expect(same.status).toBe(200);
    expect(await titleOf(orgId)).toBe('Renamed by cookie');
    const none = await browser.fetch(`/v1/orgs/${orgId}`, { method: 'PATCH', body: { title: 'Renamed again' } });
    expect(none.status).toBe(200);
    expect(await titleOf(orgId)).toBe('Renamed again');
  });

  it('lets a bearer token win over a cookie sent with it, with no CSRF rule', async () => {
    const a = await account();
    const b = await account();
    const browser = await signIn(base, a.email);
    const headers = { cookie: browser.cookie, authorization: `Bearer ${b.admin.token}` };
    const me = await fetch(`${base}/v1/user`, { headers });
    expect(((await me.json()) as any).id).toBe(b.admin.user.id);
    const patch = await fetch(`${base}/v1/orgs/${b.orgId}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json', origin: 'https://elsewhere.example' },
      body: JSON.stringify({ title: 'By token' }),
    });
    expect(patch.status).toBe(200);
    // A bad bearer token is refused, whatever cookie comes with it.
    const bad = await fetch(`${base}/v1/user`, { headers: { cookie: browser.cookie, authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
  });

  it('never serves a cached answer to another session or to nobody', async () => {
    const a = await account();
    const b = await account();
    const ba = await signIn(base, a.email);
    const bb = await signIn(base, b.email);
    for (let i = 0; i < 3; i++) {
      expect(((await (await ba.fetch('/v1/user')).json()) as any).id).toBe(a.admin.user.id);
      expect(((await (await bb.fetch('/v1/user')).json()) as any).id).toBe(b.admin.user.id);
      expect((await fetch(`${base}/v1/user`)).status).toBe(401);
      expect((await fetch(`${base}/v1/user`, { headers: { cookie: 'bindery_session=bss_x' } })).status).toBe(401);
    }
    // The same user's token gets its own answers too.
    expect(((await a.admin.client.get('/v1/user')).body as any).id).toBe(a.admin.user.id);
  });

  it('signs out: 204, the session is deleted on the server and the old cookie opens nothing', async () => {
    const { email, orgId } = await account();
    const browser = await signIn(base, email);
    expect((await browser.fetch('/v1/user')).status).toBe(200);
    const out = await fetch(`${base}/auth/logout`, { method: 'POST', headers: { cookie: browser.cookie } });
    expect(out.status).toBe(204);
    const cleared = sessionSetCookie(out) as string;
    expect(cleared).toMatch(/^bindery_session=;/);
    expect(cleared).toMatch(/Max-Age=0/);
    expect((await browser.fetch('/v1/user')).status).toBe(401);
    expect((await fetch(`${base}/auth/session`, { headers: { cookie: browser.cookie } })).status).toBe(401);
    const rows = await h.db
      .selectFrom('sessions')
      .select('id')
      .innerJoin('members', 'members.user_id', 'sessions.user_id')
      .where('members.organization_id', '=', orgId)
      .execute();
    expect(rows).toEqual([]);
    // Signing out without a session is harmless.
    expect((await fetch(`${base}/auth/logout`, { method: 'POST' })).status).toBe(204);
  });

  it('ends after SESSION_IDLE_DAYS without use, and SESSION_MAX_DAYS after sign-in however used', async () => {
    const { email, admin } = await account();
    const idle = await signIn(base, email);
    const max = await signIn(base, email);
    const kept = await signIn(base, email);
    const day = 86_400_000;
    const ids = await h.db
      .selectFrom('sessions')
      .select(['id', 'created_at'])
      .where('user_id', '=', admin.user.id)
      .orderBy('created_at')
      .execute();
    expect(ids).toHaveLength(3);
    const [idleId, maxId, keptId] = ids.map((r) => r.id) as [string, string, string];
    const iso = (ms: number) => new Date(ms).toISOString();
    await h.db
      .updateTable('sessions')
      .set({ last_used_at: iso(Date.now() - 14 * day - 1000) })
      .where('id', '=', idleId)
      .execute();
    await h.db
      .updateTable('sessions')
      .set({
        created_at: iso(Date.now() - 30 * day),
        last_used_at: iso(Date.now() - 60_000),
        expires_at: iso(Date.now() - 1000),
      })
      .where('id', '=', maxId)
      .execute();
    await h.db
      .updateTable('sessions')
      .set({ last_used_at: iso(Date.now() - 13 * day) })
      .where('id', '=', keptId)
      .execute();
    invalidateEverything(); // the sessions were cached by the sign-ins
    expect((await idle.fetch('/v1/user')).status).toBe(401);
    expect((await max.fetch('/v1/user')).status).toBe(401);
    expect((await kept.fetch('/v1/user')).status).toBe(200);
    // Using it moved its idle expiry.
    const row = await h.db
      .selectFrom('sessions')
      .select('last_used_at')
      .where('id', '=', keptId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reads SESSION_IDLE_DAYS and SESSION_MAX_DAYS', async () => {
    const short = await createHarness({ env: { SESSION_IDLE_DAYS: '1', SESSION_MAX_DAYS: '2' } });
    try {
      const url = await short.app.listen({ port: 0, host: '127.0.0.1' });
      const { user } = await short.user();
      await givePassword(short.db, user.id);
      const res = await login(url, user.email);
      expect(sessionSetCookie(res)).toMatch(/Max-Age=172800/);
      const session = await fetch(`${url}/auth/session`, { headers: { cookie: sessionCookie(res) } });
      const expires = Date.parse(((await session.json()) as any).expiresAt);
      expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(5_000);
    } finally {
      await short.close();
    }
  });
});

describe('the attempt limit', () => {
  it('answers 429 with Retry-After after 10 failures for an email, from any address; another account is unaffected', async () => {
    const victim = await account();
    const other = await account();
    for (let i = 0; i < 10; i++) {
      const res = await login(base, victim.email, `wrong ${i}`, from(`10.2.0.${i + 1}`));
      expect(res.status).toBe(401);
    }
    const limited = await login(base, victim.email, PASSWORD, from('10.2.1.1'));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as any).error.code).toBe(429);
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
    expect(sessionSetCookie(limited)).toBeUndefined();
    // Another account, even from an address that failed for the victim, signs in.
    expect((await login(base, other.email, PASSWORD, from('10.2.0.1'))).status).toBe(200);
    // Once the failures leave the window, the victim signs in again.
    await h.db
      .updateTable('sign_in_failures')
      .set({ failed_at: new Date(Date.now() - 15 * 60_000 - 1000).toISOString() })
      .where('key', '=', `email:${victim.email}`)
      .execute();
    expect((await login(base, victim.email, PASSWORD, from('10.2.1.1'))).status).toBe(200);
  });

  it('answers 429 after 10 failures from one address, for any email from it; other addresses are unaffected', async () => {
    const target = await account();
    for (let i = 0; i < 10; i++) {
      const res = await login(base, `spray-${i}-${newId(6)}@example.test`, 'guess', from('10.3.0.1'));
      expect(res.status).toBe(401);
    }
    const limited = await login(base, target.email, PASSWORD, from('10.3.0.1'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(base, target.email, PASSWORD, from('10.3.0.2'))).status).toBe(200);
  });

  it('counts 9 failures without refusing the tenth attempt', async () => {
    const { email } = await account();
    for (let i = 0; i < 9; i++) expect((await login(base, email, 'nope', from(`10.4.0.${i}`))).status).toBe(401);
    expect((await login(base, email, PASSWORD, from('10.4.1.1'))).status).toBe(200);
    // A success forgets the email's failures.
    for (let i = 0; i < 9; i++) expect((await login(base, email, 'nope', from(`10.4.2.${i}`))).status).toBe(401);
    expect((await login(base, email, PASSWORD, from('10.4.3.1'))).status).toBe(200);
  });
});

describe('events', () => {
  it('records sign-ins, failures and sign-outs in the organizations of the user', async () => {
    const { email, admin, orgId } = await account();
    expect((await login(base, email, 'wrong password', from('10.5.0.1'))).status).toBe(401);
    const browser = await signIn(base, email);
    await fetch(`${base}/auth/logout`, { method: 'POST', headers: { cookie: browser.cookie } });
    const events = await auditEvents(admin.client, orgId);
    const actions = events.map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(['user.signed_out', 'user.signed_in', 'user.sign_in_failed']);
    const signedIn = events[1] as (typeof events)[number];
    expect(signedIn.actor.id).toBe(admin.user.id);
    expect(signedIn.target).toMatchObject({ type: 'session' });
    const failed = events[2] as (typeof events)[number];
    expect(failed.target).toMatchObject({ type: 'user', id: admin.user.id });
    const details = await admin.client.get(`/v1/orgs/${orgId}/audit-events/${signedIn.id}`);
    expect(JSON.stringify(details.body)).not.toMatch(/bss_|secret/);
  });
});
