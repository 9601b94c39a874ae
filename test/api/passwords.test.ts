/**
 * Passwords: the reset mail through a real SMTP server (smtp-server on loopback), its link followed
 * to the form and posted as a browser without JavaScript would; tokens used twice or late; the
 * sign-in form page and its returnTo; and the CLI (`bindery user set-password|reset-link`) as a
 * child process.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { freshDatabase } from '../helpers/fresh-db.js';
import { givePassword, login, PASSWORD, sessionCookie, signIn } from '../helpers/sessions.js';

const messages: string[] = [];
let smtp: SMTPServer;
let h: Harness;
let base: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') return callback(null, { user: 'mailer' });
      callback(new Error('bad credentials'));
    },
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        messages.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  h = await createHarness({
    env: { SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`, MAIL_FROM: 'Docs <docs@example.test>' },
  });
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

/** The body of a quoted-printable message, decoded. */
function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function mailTo(email: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const found = messages.find((m) => m.toLowerCase().includes(`to: ${email}`));
    if (found) return decoded(found);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail to ${email}`);
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

describe('password reset by mail', () => {
  it('mails a single-use link; the form sets the password and ends the other sessions', async () => {
    const { user } = await h.user();
    await givePassword(h.db, user.id);
    const before = await signIn(base, user.email);
    const asked = await fetch(`${base}/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email }),
    });
    expect(asked.status).toBe(202);
    const mail = await mailTo(user.email);
    expect(mail).toMatch(/^From: Docs <docs@example\.test>/m);
    const link = /http:\/\/bindery\.test\/auth\/reset\?token=([\w-]+)/.exec(mail);
    expect(link).not.toBeNull();
    const token = (link as RegExpExecArray)[1] as string;

    const page = await fetch(`${base}/auth/reset?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('<label for="password">New password</label>');
    expect(html).toContain(`value="${token}"`);
    expect(html).not.toMatch(/<script/i);

    const short = await fetch(`${base}/auth/password-reset/confirm`, form({ token, password: 'too short' }));
    expect(short.status).toBe(400);
    expect(await short.text()).toMatch(/at least 10 characters/);

    const newPassword = 'a brand new passphrase';
    const done = await fetch(`${base}/auth/password-reset/confirm`, form({ token, password: newPassword }));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Password set');
    expect((await before.fetch('/v1/user')).status).toBe(401);
    expect((await login(base, user.email, PASSWORD)).status).toBe(401);
    expect((await login(base, user.email, newPassword)).status).toBe(200);

    const twice = await fetch(`${base}/auth/password-reset/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'yet another passphrase' }),
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as any).error.message).toMatch(/not valid/);
    expect((await login(base, user.email, newPassword)).status).toBe(200);
  });

  it('refuses a link used after 30 minutes', async () => {
    const { user } = await h.user();
    await fetch(`${base}/auth/password-reset`, form({ email: user.email }));
    const token = (/token=([\w-]+)/.exec(await mailTo(user.email)) as RegExpExecArray)[1] as string;
    await h.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const late = await fetch(`${base}/auth/password-reset/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'a late passphrase' }),
    });
    expect(late.status).toBe(400);
    expect((await login(base, user.email, 'a late passphrase')).status).toBe(401);
  });

  it('answers 202 for an unknown email too, and mails nothing', async () => {
    const email = `nobody-${newId(6).toLowerCase()}@example.test`;
    const res = await fetch(`${base}/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages.some((m) => m.includes(email))).toBe(false);
    const bad = await fetch(`${base}/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(bad.status).toBe(400);
  });
});

describe('the sign-in page', () => {
  it('serves an accessible form, and signs in with a plain form post back to returnTo', async () => {
    const page = await fetch(`${base}/auth/login?returnTo=/spaces/abc?x=1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).toContain('value="/spaces/abc?x=1"');
    expect(html).not.toMatch(/<script/i);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self'/);

    const { user } = await h.user();
    await givePassword(h.db, user.id);
    const wrong = await fetch(
      `${base}/auth/login`,
      form({ email: user.email, password: 'wrong password', returnTo: '/spaces' }),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('role="alert"');
    const ok = await fetch(`${base}/auth/login`, form({ email: user.email, password: PASSWORD, returnTo: '/spaces' }));
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/spaces');
    expect((await fetch(`${base}/v1/user`, { headers: { cookie: sessionCookie(ok) } })).status).toBe(200);
  });

  it('refuses a returnTo that could leave this server', async () => {
    for (const returnTo of [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      'evil',
      'javascript:alert(1)',
    ]) {
      const page = await fetch(`${base}/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(page.status, returnTo).toBe(400);
      const post = await fetch(`${base}/auth/login`, form({ email: 'a@b.test', password: 'x', returnTo }));
      expect(post.status, returnTo).toBe(400);
    }
  });

  it('shows no single sign-on link unless OIDC is configured', async () => {
    expect(await (await fetch(`${base}/auth/login`)).text()).not.toContain('Sign in with');
  });
});

describe('the CLI', () => {
  async function bindery(databaseUrl: string, args: string[], input = '') {
    const child = spawn(process.execPath, [path.resolve('bin/bindery.js'), ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://bindery.test' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdin.end(input);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout, stderr };
  }

  it('sets a password read from standard input, and prints a reset link', async () => {
    const database = await freshDatabase('cli-passwords');
    try {
      const email = `ops-${newId(6).toLowerCase()}@example.test`;
      const boot = await bindery(database.url, ['bootstrap', '--email', email, '--name', 'Ops', '--org', 'Acme']);
      expect(boot.code).toBe(0);
      const short = await bindery(database.url, ['user', 'set-password', '--email', email], 'short\n');
      expect(short.code).toBe(2);
      expect(short.stderr).toMatch(/at least 10 characters/);
      const set = await bindery(database.url, ['user', 'set-password', '--email', email], 'a passphrase from stdin\n');
      expect(set.code).toBe(0);
      const unknown = await bindery(
        database.url,
        ['user', 'set-password', '--email', 'nobody@example.test'],
        'whatever long\n',
      );
      expect(unknown.code).toBe(2);
      const reset = await bindery(database.url, ['user', 'reset-link', '--email', email]);
      expect(reset.code).toBe(0);
      const { link } = JSON.parse(reset.stdout) as { link: string };
      expect(link).toMatch(/^http:\/\/bindery\.test\/auth\/reset\?token=[\w-]+$/);

      const own = await createHarness({ ownDatabase: database.url });
      try {
        const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
        expect((await login(url, email, 'a passphrase from stdin')).status).toBe(200);
        const token = new URL(link).searchParams.get('token') as string;
        const confirm = await fetch(`${url}/auth/password-reset/confirm`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, password: 'set through the link' }),
        });
        expect(confirm.status).toBe(204);
        expect((await login(url, email, 'set through the link')).status).toBe(200);
      } finally {
        await own.close();
      }
    } finally {
      await database.drop();
    }
  }, 300_000);
});
