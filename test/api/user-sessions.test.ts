/**
 * A user's own sessions and tokens (`/v1/user/sessions`, `/v1/user/tokens`) through a listening
 * server: listing (the caller's own marked current; never a token's secret), revoking (at once,
 * here and, on PostgreSQL, in a second server process), and who may do it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { serveProcess } from '../helpers/server.js';
import { givePassword, signIn } from '../helpers/sessions.js';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await createHarness();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => h?.close());

async function account(): Promise<{ orgId: string; admin: TestUser; email: string }> {
  const org = await h.org();
  await givePassword(h.db, org.admin.user.id);
  return { orgId: org.id, admin: org.admin, email: org.admin.user.email };
}

const json = async (res: Response) => (await res.json()) as any;

describe('sessions', () => {
  it('lists the caller’s sessions, marking the current one, and revokes another at once', async () => {
    const { email, admin, orgId } = await account();
    const first = await signIn(base, email);
    const second = await signIn(base, email);
    const list = await json(await first.fetch('/v1/user/sessions'));
    expect(list.count).toBe(2);
    const current = list.items.filter((s: any) => s.current);
    expect(current).toHaveLength(1);
    const other = list.items.find((s: any) => !s.current);
    expect(other).toMatchObject({ object: 'session', method: 'password', clientAddress: '127.0.0.1' });
    expect(JSON.stringify(list)).not.toMatch(/bss_/);
    // A token lists them too, none current.
    const byToken = await admin.client.get('/v1/user/sessions');
    expect(byToken.body.items.every((s: any) => s.current === false)).toBe(true);
    // Paging.
    const page = await json(await first.fetch('/v1/user/sessions?limit=1'));
    expect(page.items).toHaveLength(1);
    expect(page.next.page).toEqual(expect.any(String));

    expect((await second.fetch('/v1/user')).status).toBe(200);
    const revoked = await first.fetch(`/v1/user/sessions/${other.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect((await second.fetch('/v1/user')).status).toBe(401);
    expect((await first.fetch('/v1/user')).status).toBe(200);
    expect((await first.fetch(`/v1/user/sessions/${other.id}`, { method: 'DELETE' })).status).toBe(404);
    const events = await auditEvents(admin.client, orgId, 'session.revoked');
    expect(events).toHaveLength(1);
    expect(events[0]?.target).toMatchObject({ type: 'session', id: other.id });
  });

  it("answers 404 for another user's session and changes nothing", async () => {
    const a = await account();
    const b = await account();
    const browserA = await signIn(base, a.email);
    const browserB = await signIn(base, b.email);
    const [theirs] = (await json(await browserB.fetch('/v1/user/sessions'))).items;
    const res = await browserA.fetch(`/v1/user/sessions/${theirs.id}`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe(404);
    expect((await browserB.fetch('/v1/user')).status).toBe(200);
    expect((await browserA.fetch('/v1/user/sessions/nope', { method: 'DELETE' })).status).toBe(404);
  });

  it('requires authentication', async () => {
    expect((await fetch(`${base}/v1/user/sessions`)).status).toBe(401);
    expect((await fetch(`${base}/v1/user/tokens`)).status).toBe(401);
  });
});

describe('tokens', () => {
  it('creates a token (its secret shown once), lists it without the secret, and revokes it at once', async () => {
    const { email } = await account();
    const browser = await signIn(base, email);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await browser.fetch('/v1/user/tokens', {
      method: 'POST',
      body: { label: 'CI deploys', scopes: ['space:read'], expiresAt },
    });
    expect(created.status).toBe(201);
    const token = await json(created);
    expect(token).toMatchObject({ object: 'api-token', label: 'CI deploys', scopes: ['space:read'], expiresAt });
    expect(token.token).toMatch(/^bnd_/);

    const list = await json(await browser.fetch('/v1/user/tokens'));
    const listed = list.items.find((t: any) => t.id === token.id);
    expect(listed).toMatchObject({ label: 'CI deploys', lastUsedAt: null });
    expect(listed.token).toBeUndefined();
    expect(JSON.stringify(list)).not.toContain(token.token);

    const use = await fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token.token}` } });
    expect(use.status).toBe(403); // scoped to space:read only
    const scoped = await fetch(`${base}/v1/user/tokens`, { headers: { authorization: `Bearer ${token.token}` } });
    expect(scoped.status).toBe(403);

    const full = await json(await browser.fetch('/v1/user/tokens', { method: 'POST', body: { label: 'All' } }));
    expect(full.scopes).toBeNull();
    expect(full.expiresAt).toBeNull();
    const bearer = { authorization: `Bearer ${full.token}` };
    expect((await fetch(`${base}/v1/user`, { headers: bearer })).status).toBe(200);
    expect((await browser.fetch(`/v1/user/tokens/${full.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${base}/v1/user`, { headers: bearer })).status).toBe(401);
    expect((await browser.fetch(`/v1/user/tokens/${full.id}`, { method: 'DELETE' })).status).toBe(404);
    const after = await json(await browser.fetch('/v1/user/tokens'));
    expect(after.items.map((t: any) => t.id)).not.toContain(full.id);
  });

  it('records token.created and token.revoked in the organizations of the user', async () => {
    const { email, admin, orgId } = await account();
    const browser = await signIn(base, email);
    const token = await json(await browser.fetch('/v1/user/tokens', { method: 'POST', body: { label: 'Audit' } }));
    await browser.fetch(`/v1/user/tokens/${token.id}`, { method: 'DELETE' });
    const actions = (await auditEvents(admin.client, orgId)).map((e) => e.action);
    expect(actions.slice(0, 2)).toEqual(['token.revoked', 'token.created']);
  });

  it('lets a token without scopes manage tokens, but not a scoped one (403)', async () => {
    const { admin } = await account();
    const created = await admin.client.post('/v1/user/tokens', { label: 'By token' });
    expect(created.status).toBe(201);
    const scoped = await h.user({ scopes: ['user:read'] });
    const refused = await scoped.client.post('/v1/user/tokens', { label: 'Escalate' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(403);
    const [own] = (await h.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', scoped.user.id)
      .execute()) as [{ id: string }];
    expect((await scoped.client.delete(`/v1/user/tokens/${own.id}`)).status).toBe(403);
  });

  it("answers 404 for another user's token, and leaves it working", async () => {
    const a = await account();
    const b = await account();
    const [theirs] = (await h.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', b.admin.user.id)
      .execute()) as [{ id: string }];
    expect((await a.admin.client.delete(`/v1/user/tokens/${theirs.id}`)).status).toBe(404);
    expect((await b.admin.client.get('/v1/user')).status).toBe(200);
  });

  it('refuses bad input with a 400 envelope', async () => {
    const { admin } = await account();
    for (const body of [
      {},
      { label: '' },
      { label: '   ' },
      { label: 'x'.repeat(101) },
      { label: 'ok', scopes: ['nope'] },
      { label: 'ok', scopes: [] },
      { label: 'ok', expiresAt: 'tomorrow' },
      { label: 'ok', expiresAt: new Date(Date.now() - 1000).toISOString() },
      { label: 'ok', extra: true },
    ]) {
      const res = await admin.client.post('/v1/user/tokens', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    expect((await admin.client.post('/v1/user/tokens', { label: 'x'.repeat(100) })).status).toBe(201);
  });
});

describe.runIf(inject('databaseUrl') !== null)('another server process (PostgreSQL)', () => {
  it('refuses a session and a token as soon as they are revoked here', async () => {
    const server = await serveProcess(inject('databaseUrl') as string);
    try {
      const { email, admin } = await account();
      const browser = await signIn(base, email);
      const token = await json(await browser.fetch('/v1/user/tokens', { method: 'POST', body: { label: 'Remote' } }));
      const bearer = { authorization: `Bearer ${token.token}` };
      const remote = (headers: Record<string, string>) => fetch(`${server.base}/v1/user`, { headers });
      expect((await remote({ cookie: browser.cookie })).status).toBe(200);
      expect((await remote(bearer)).status).toBe(200);

      const second = await signIn(base, email);
      const [other] = (await json(await browser.fetch('/v1/user/sessions'))).items.filter((s: any) => !s.current);
      expect((await remote({ cookie: second.cookie })).status).toBe(200);
      expect((await browser.fetch(`/v1/user/sessions/${other.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await browser.fetch(`/v1/user/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(204);
      const eventually = async (headers: Record<string, string>) => {
        const start = Date.now();
        for (;;) {
          const res = await remote(headers);
          if (res.status === 401 || Date.now() - start > 1_000) return { status: res.status, took: Date.now() - start };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const session = await eventually({ cookie: second.cookie });
      expect(session.status).toBe(401);
      expect(session.took).toBeLessThan(1_000);
      const revokedToken = await eventually(bearer);
      expect(revokedToken.status).toBe(401);
      expect((await remote({ cookie: browser.cookie })).status).toBe(200);
      expect(admin.user.email).toBe(email);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
