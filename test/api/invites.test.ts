/**
 * Invite links in detail (the official shapes are in test/contract/invites.contract.test.ts): their
 * limits, refusals, events in the audit log, the HTML page an invite link opens, and the mail sent
 * to people invited by e-mail through a real SMTP server on loopback.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, PUBLIC_URL } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { listenOnLoopback } from '../helpers/browser.js';
import { givePassword, PASSWORD, sessionCookie } from '../helpers/sessions.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(async () => harness.close());

async function orgWithLinks() {
  const org = await harness.org();
  const res = await org.admin.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: true });
  expect(res.status).toBe(200);
  return org;
}

describe('invite links', () => {
  it('need inviteLinks turned on, to create and to join', async () => {
    const org = await harness.org();
    const off = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' });
    expect(off.status).toBe(400);
    expect(off.body.error.message).toContain('inviteLinks');
    await org.admin.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: true });
    const created = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' });
    expect(created.status).toBe(201);
    expect(created.body.urls.app).toBe(`${PUBLIC_URL}/invite/${org.id}/${created.body.id}`);
    await org.admin.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: false });
    const joiner = await harness.user();
    const join = await joiner.client.post(`/v1/orgs/${org.id}/invites/${created.body.id}`);
    expect(join.status).toBe(400);
  });

  it('refuse an expired, used-up or deleted link; count uses to maxUses', async () => {
    const org = await orgWithLinks();
    const once = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'edit', maxUses: 1 });
    expect(once.body).toMatchObject({ maxUses: 1, uses: 0 });
    const first = await harness.user();
    expect((await first.client.post(`/v1/orgs/${org.id}/invites/${once.body.id}`)).status).toBe(200);
    const second = await harness.user();
    const usedUp = await second.client.post(`/v1/orgs/${org.id}/invites/${once.body.id}`);
    expect(usedUp.status).toBe(410);
    expect(usedUp.body.error.message).toContain('used up');
    const after = await org.admin.client.get(`/v1/orgs/${org.id}/link-invites/${once.body.id}`);
    expect(after.body.uses).toBe(1);

    const soon = new Date(Date.now() + 1500).toISOString();
    const expiring = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read', expiresAt: soon });
    expect(expiring.body.expiresAt).toBe(soon);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const expired = await second.client.post(`/v1/orgs/${org.id}/invites/${expiring.body.id}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toContain('expired');

    const deleted = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' });
    expect((await org.admin.client.delete(`/v1/orgs/${org.id}/link-invites/${deleted.body.id}`)).status).toBe(205);
    expect((await second.client.post(`/v1/orgs/${org.id}/invites/${deleted.body.id}`)).status).toBe(404);
    const member = await org.admin.client.get(`/v1/orgs/${org.id}/members/${second.user.id}`);
    expect(member.status).toBe(404);
  });

  it('a guest joining gains the link role; an existing member changes and uses nothing', async () => {
    const org = await orgWithLinks();
    const link = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'comment', maxUses: 5 });
    const guest = await harness.member(org.id, null);
    expect((await guest.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`)).status).toBe(200);
    const member = await org.admin.client.get(`/v1/orgs/${org.id}/members/${guest.user.id}`);
    expect(member.body.role).toBe('comment');
    const editor = await harness.member(org.id, 'edit');
    expect((await editor.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`)).status).toBe(200);
    const unchanged = await org.admin.client.get(`/v1/orgs/${org.id}/members/${editor.user.id}`);
    expect(unchanged.body.role).toBe('edit');
    const after = await org.admin.client.get(`/v1/orgs/${org.id}/link-invites/${link.body.id}`);
    expect(after.body.uses).toBe(1);
  });

  it('check their limits and ids (400)', async () => {
    const org = await orgWithLinks();
    const base = `/v1/orgs/${org.id}/link-invites`;
    expect((await org.admin.client.post(base, { role: 'read', maxUses: 0 })).status).toBe(400);
    expect((await org.admin.client.post(base, { role: 'read', maxUses: 100_001 })).status).toBe(400);
    expect((await org.admin.client.post(base, { role: 'read', maxUses: 100_000 })).status).toBe(201);
    const past = new Date(Date.now() - 1000).toISOString();
    expect((await org.admin.client.post(base, { role: 'read', expiresAt: past })).status).toBe(400);
    expect((await org.admin.client.post(base, { role: 'read', expiresAt: 'tomorrow' })).status).toBe(400);
    expect((await org.admin.client.post(base, { role: 'read', extra: 1 })).status).toBe(400);
    expect((await org.admin.client.get(`${base}/bad%20id`)).status).toBe(400);
    expect((await org.admin.client.get(`${base}?limit=1001`)).status).toBe(400);
    const link = await org.admin.client.post(base, { role: 'read' });
    const noRole = await org.admin.client.patch(`${base}/${link.body.id}`, { maxUses: 3 });
    expect(noRole.status).toBe(400);
    const both = await org.admin.client.patch(`${base}/${link.body.id}`, { role: 'edit', maxUses: 3, expiresAt: null });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ role: 'edit', maxUses: 3 });
  });

  it('record their events, without their secret', async () => {
    const org = await orgWithLinks();
    const link = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' });
    await org.admin.client.patch(`/v1/orgs/${org.id}/link-invites/${link.body.id}`, { role: 'edit' });
    const joiner = await harness.user();
    await joiner.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`);
    await org.admin.client.delete(`/v1/orgs/${org.id}/link-invites/${link.body.id}`);
    const events = await auditEvents(org.admin.client, org.id);
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['invite.created', 'invite.updated', 'member.added', 'invite.deleted']),
    );
    expect(events.find((e) => e.action === 'member.added')?.actor.id).toBe(joiner.user.id);
    const raw = await org.admin.client.get(`/v1/orgs/${org.id}/audit-events?limit=100`);
    expect(JSON.stringify(raw.body)).not.toContain(link.body.id);
  });

  it('to a space: joining records member.added and space.permissions.updated, in that order', async () => {
    const org = await orgWithLinks();
    const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Invited' });
    const link = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, {
      level: 'edit',
      space: space.body.id,
    });
    expect(link.status).toBe(201);
    const joiner = await harness.user();
    expect((await joiner.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`)).status).toBe(200);
    const events = await auditEvents(org.admin.client, org.id);
    expect(events.slice(0, 3).map((e) => e.action)).toEqual([
      'space.permissions.updated',
      'member.added',
      'invite.created',
    ]);
    expect(events[0]).toMatchObject({ actor: { id: joiner.user.id }, target: { id: space.body.id } });
    const details = await org.admin.client.get(`/v1/orgs/${org.id}/audit-events/${events[0]?.id}`);
    expect(details.body.payload.object.grants).toEqual([{ user: joiner.user.id, role: 'edit' }]);
    expect(events[2]?.target.label).toContain(`space ${space.body.id}`);
    // Joining again changes nothing, records nothing, uses nothing.
    expect((await joiner.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`)).status).toBe(200);
    expect(await auditEvents(org.admin.client, org.id)).toHaveLength(events.length);
  });

  it('to a space: a level null makes a guest with no grant; a gone space stops the link', async () => {
    const org = await orgWithLinks();
    const space = await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title: 'Short-lived' });
    const base = `/v1/orgs/${org.id}/link-invites`;
    const guestLink = await org.admin.client.post(base, { level: null, space: space.body.id });
    expect(guestLink.body).toMatchObject({ level: null, space: { id: space.body.id } });
    const joiner = await harness.user();
    expect((await joiner.client.post(`/v1/orgs/${org.id}/invites/${guestLink.body.id}`)).status).toBe(200);
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/members/${joiner.user.id}`)).body.role).toBeNull();
    expect((await joiner.client.get(`/v1/spaces/${space.body.id}`)).status).toBe(404);

    const link = await org.admin.client.post(base, { level: 'read', space: space.body.id });
    expect((await org.admin.client.delete(`/v1/spaces/${space.body.id}`)).status).toBe(204);
    const late = await harness.user();
    const refused = await late.client.post(`/v1/orgs/${org.id}/invites/${link.body.id}`);
    expect(refused.status).toBe(410);
    expect(refused.body.error.message).toContain('no longer exists');
    expect((await org.admin.client.get(`${base}/${link.body.id}`)).status).toBe(404);
    // Left out of the list and of its count; the link to the organization is still there.
    const keeper = await org.admin.client.post(base, { role: 'read' });
    const list = await org.admin.client.get(base);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([keeper.body.id]);
    expect(list.body.count).toBe(1);
    expect((await org.admin.client.delete(`${base}/${link.body.id}`)).status).toBe(205);
  });
});

describe('the invite page', () => {
  it('sends a visitor who is not signed in to sign-in, and back; an unknown link is a 404 page', async () => {
    const org = await orgWithLinks();
    const link = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' });
    const page = await harness.app.inject({ method: 'GET', url: `/invite/${org.id}/${link.body.id}` });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(
      `/auth/login?returnTo=${encodeURIComponent(new URL(link.body.urls.app).pathname)}`,
    );
    expect(page.headers['referrer-policy']).toBe('strict-origin');
    const unknown = await harness.app.inject({ method: 'GET', url: `/invite/${org.id}/nope` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('not valid');
  });
});

describe('updating a user', () => {
  it('is recorded in each organization of the user', async () => {
    const org = await harness.org();
    const other = await harness.org();
    const member = await harness.member(org.id, 'read');
    await harness.db
      .insertInto('members')
      .values({
        organization_id: other.id,
        user_id: member.user.id,
        role: 'read',
        disabled: 0,
        sso: 0,
        joined_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    const res = await member.client.patch(`/v1/users/${member.user.id}`, { displayName: 'Grace' });
    expect(res.status).toBe(200);
    for (const [id, admin] of [
      [org.id, org.admin],
      [other.id, other.admin],
    ] as const) {
      const events = await auditEvents(admin.client, id, 'user.updated');
      expect(events).toHaveLength(1);
      expect(events[0]?.target).toMatchObject({ id: member.user.id });
    }
    const loner = await harness.user();
    expect((await loner.client.patch(`/v1/users/${loner.user.id}`, { displayName: 'Alone' })).status).toBe(200);
  });
});

describe('invitation mail', () => {
  it('reaches each newly invited address through a real SMTP server', async () => {
    const received: Array<{ to: string; data: string }> = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          for (const to of session.envelope.rcptTo) received.push({ to: to.address, data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    const mailing = await createHarness({
      smtp: { url: `smtp://127.0.0.1:${port}`, from: 'Bindery <docs@bindery.test>' },
    });
    try {
      const org = await mailing.org({ title: 'Acme Docs' });
      const res = await org.admin.client.post(`/v1/orgs/${org.id}/invites`, {
        emails: ['new-person@example.test', { email: 'other@example.test', role: 'edit' }],
      });
      expect(res.status).toBe(200);
      expect(res.body.invited).toBe(2);
      expect(received.map((m) => m.to).sort()).toEqual(['new-person@example.test', 'other@example.test']);
      const mail = received[0]?.data ?? '';
      expect(mail).toContain('From: Bindery <docs@bindery.test>');
      expect(mail).toContain('Acme Docs');
      expect(mail.replace(/=\r?\n/g, '').replaceAll('=3D', '=')).toContain(
        `/auth/login?returnTo=${encodeURIComponent(`/o/${org.id}`)}`,
      );
      // Invited again: no longer new, no second mail.
      await org.admin.client.post(`/v1/orgs/${org.id}/invites`, { emails: ['new-person@example.test'] });
      expect(received).toHaveLength(2);
    } finally {
      await mailing.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('signs in through the sign-in page and back, then joins with the Join form (its CSRF field and origin checked)', async () => {
    const org = await orgWithLinks();
    const link = await org.admin.client.post(`/v1/orgs/${org.id}/link-invites`, { role: 'comment' });
    const person = await harness.user();
    await givePassword(harness.db, person.user.id);
    const base = await listenOnLoopback(harness.app);
    const invitePath = new URL(link.body.urls.app).pathname;
    // Signed out: to the sign-in page, whose form brings the person back to the invite.
    const first = await fetch(`${base}${invitePath}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: person.user.email, password: PASSWORD, returnTo: invitePath }).toString(),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe(invitePath);
    const cookie = sessionCookie(login);
    const page = await fetch(`${base}${invitePath}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<button type="submit">Join</button>');
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    // Without the form's token, or from another origin: refused, and not a member.
    const forged = await fetch(`${base}${invitePath}`, {
      method: 'POST',
      headers: form,
      body: 'csrf=wrong',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    const crossSite = await fetch(`${base}${invitePath}`, {
      method: 'POST',
      headers: { ...form, origin: 'https://evil.example' },
      body: `csrf=${encodeURIComponent(csrf)}`,
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);
    expect((await person.client.get(`/v1/orgs/${org.id}`)).status).toBe(404);
    const joined = await fetch(`${base}${invitePath}`, {
      method: 'POST',
      headers: form,
      body: `csrf=${encodeURIComponent(csrf)}`,
      redirect: 'manual',
    });
    expect(joined.status).toBe(303);
    expect(joined.headers.get('location')).toBe(`/o/${org.id}`);
    const member = await org.admin.client.get(`/v1/orgs/${org.id}/members/${person.user.id}`);
    expect(member.status).toBe(200);
    expect(member.body.role).toBe('comment');
  });
});
