/**
 * The web app's administration of people, as an admin and a newcomer use it, in a real browser over a
 * real server with a real SMTP server: the admin invites someone by e-mail from the members screen;
 * the newcomer follows the mail's link, sets a password through the reset mail, signs in and sees the
 * organization (without the admin's controls); the admin changes their role, removes someone else
 * (confirmed in an alert dialog), sees a refused change's message beside its control, makes a team
 * (renamed) with the newcomer in it, shares a space with that team and a collection with the newcomer,
 * then deletes the team. Each screen is checked with axe and for console errors and Content-Security-Policy violations;
 * the members screen also at a phone's width in dark mode. Screenshots go to test-output/app/.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import {
  harnessAtFreePort,
  listenAndLaunch,
  APP_OUTPUT as OUTPUT,
  optionFocused,
  signIn,
  watchPage,
} from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { givePassword } from '../helpers/sessions.js';

const NEWCOMER = 'newcomer@example.test';
const NEW_PASSWORD = 'a brand new passphrase';

interface Mail {
  to: string;
  text: string;
}

describe.skipIf(browserMissing)('people administration in the web app', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let leaving: TestUser;
  let collectionId: string;
  let smtp: SMTPServer;
  const mails: Mail[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          // Quoted-printable, as nodemailer writes long lines: joined and decoded enough to read links.
          const text = data.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
          for (const to of session.envelope.rcptTo) mails.push({ to: to.address, text });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    let port: number;
    ({ h, port, base } = await harnessAtFreePort({
      smtp: { url: `smtp://127.0.0.1:${smtpPort}`, from: 'Bindery <docs@bindery.test>' },
    }));
    world = await h.space('Handbook');
    await givePassword(h.db, world.admin.user.id);
    leaving = await h.member(world.orgId, 'read');
    const collection = await world.admin.client.post(`/v1/orgs/${world.orgId}/collections`, { title: 'Guides' });
    expect(collection.status, JSON.stringify(collection.body)).toBe(201);
    collectionId = collection.body.id;
    browser = await listenAndLaunch(h, port, OUTPUT);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  /** The first link in a mail to `to` matching `pattern`, waiting for the mail to arrive. */
  async function linkInMail(to: string, pattern: RegExp): Promise<string> {
    for (let tries = 0; tries < 100; tries++) {
      for (const mail of mails) {
        const found = mail.to === to ? pattern.exec(mail.text) : null;
        if (found) return found[0];
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail to ${to} with ${pattern} (mails: ${mails.map((m) => m.to).join(', ')})`);
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }

  /** Picks `option` in the Radix Select named `name`. */
  async function choose(page: Page, name: string, option: string) {
    await page.getByRole('combobox', { name, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  const api = (path: string) => world.admin.client.get(path);

  it('invites a newcomer by e-mail, who joins; the admin changes their role, removes someone, makes a team and shares a space with it', async () => {
    const page = await browser.newPage();
    const { errors, quietAndAccessible } = await watchPage(page);
    const members = `${base}/o/${world.orgId}/members`;

    // The admin signs in and opens the members screen from the organization's navigation.
    await page.goto(`${base}/o/${world.orgId}`);
    await signIn(page, world.admin.user.email);
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: /^Members of / }).waitFor();

    // Invite by e-mail, as an editor: the newcomer is a member at once, and mailed.
    await page.getByLabel('E-mail addresses').fill(`not an address, ${NEWCOMER}`);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Not an e-mail address: not, an, address').waitFor();
    await page.getByLabel('E-mail addresses').fill(NEWCOMER);
    await choose(page, 'Role', 'Editor');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Invited 1 person.').waitFor();
    const listed = await api(`/v1/orgs/${world.orgId}/members?search=newcomer`);
    const newcomer = listed.body.items.find((m: { user: { email: string } }) => m.user.email === NEWCOMER);
    expect(newcomer?.role).toBe('edit');
    const name: string = newcomer.user.displayName;
    await page.getByRole('combobox', { name: `Role of ${name}` }).waitFor();

    // An invite link, once invite links are allowed: the whole organization, as a commenter.
    await page.getByRole('button', { name: 'Allow invite links' }).click();
    await choose(page, 'Role it gives', 'Commenter');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = await page.getByLabel('New invite link').inputValue();
    expect(link).toMatch(new RegExp(`^${base}/invite/${world.orgId}/[A-Za-z0-9_-]+$`));
    const links = await api(`/v1/orgs/${world.orgId}/link-invites`);
    expect(links.body.items.map((l: { role: string; urls: { app: string } }) => [l.role, l.urls.app])).toEqual([
      ['comment', link],
    ]);
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/members.png`, fullPage: true });
    await signOut(page);

    // The newcomer follows the mail's link to the sign-in page, sets a password through the reset
    // mail, signs in from the same link and lands in the organization.
    const invitation = await linkInMail(NEWCOMER, /http:\/\/127\.0\.0\.1:\d+\/auth\/login\?returnTo=[^\s"<>]+/);
    await page.goto(invitation);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(NEWCOMER);
    await page.getByRole('button', { name: 'Send a reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.goto(await linkInMail(NEWCOMER, /http:\/\/127\.0\.0\.1:\d+\/auth\/reset\?token=[^\s"<>]+/));
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await page.goto(invitation);
    await signIn(page, NEWCOMER, NEW_PASSWORD);
    await page.waitForURL(`${base}/o/${world.orgId}`);
    await page.getByRole('link', { name: 'Handbook' }).first().waitFor();
    // The invite link's Join form posts from the browser too (already a member: nothing changes).
    await page.goto(link);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.waitForURL(`${base}/o/${world.orgId}`);
    await page.getByRole('link', { name: 'Handbook' }).first().waitFor();
    await quietAndAccessible();

    // Not an admin: the members screen lists people without the controls.
    await page.getByRole('navigation').getByRole('link', { name: 'Members' }).click();
    await page.getByText(NEWCOMER).waitFor();
    expect(await page.getByRole('heading', { name: 'Invite people' }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    expect(await page.getByText('Editor').count()).toBeGreaterThan(0);
    await quietAndAccessible();
    await signOut(page);

    // The admin again: the newcomer becomes a reviewer; another member is removed, after confirming.
    await page.goto(members);
    await signIn(page, world.admin.user.email);
    // By keyboard: open the role's list, one up from Editor is Reviewer, Enter picks it.
    await page.getByRole('combobox', { name: `Role of ${name}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Editor' }).waitFor();
    await optionFocused(page);
    await page.keyboard.press('ArrowUp');
    await page.getByRole('option', { name: 'Reviewer' }).and(page.locator('[data-highlighted]')).waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await api(`/v1/orgs/${world.orgId}/members/${newcomer.id}`)).body.role)
      .toBe('review');
    // A change the API refuses (the only admin stepping down) shows its message beside the control.
    const adminName = world.admin.user.display_name;
    const adminRole = page.getByRole('combobox', { name: `Role of ${adminName}` });
    await choose(page, `Role of ${adminName}`, 'Editor');
    const refusal = page.getByRole('alert').filter({ hasText: 'the organization must keep at least one admin' });
    await refusal.waitFor();
    expect(await adminRole.getAttribute('aria-describedby')).toBe(await refusal.getAttribute('id'));
    expect(await adminRole.textContent()).toContain('Admin');
    // The browser logs the refused request; that one is expected, and only that one.
    expect(errors.filter((e) => e.includes('409 (Conflict)'))).toHaveLength(1);
    errors.splice(
      errors.findIndex((e) => e.includes('409 (Conflict)')),
      1,
    );
    await page.getByRole('button', { name: `Remove ${leaving.user.display_name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Remove ${leaving.user.display_name}?` });
    await confirm.waitFor();
    await quietAndAccessible();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await api(`/v1/orgs/${world.orgId}/members/${leaving.user.id}`)).status).toBe(404);

    // At a phone's width and in dark mode, the screen still fits and passes axe (contrast included).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('combobox', { name: `Role of ${name}` }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/members-phone-dark.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });

    // A team, with the newcomer in it.
    await page.getByRole('navigation').getByRole('link', { name: 'Teams' }).click();
    await page.getByLabel('New team name').fill('Drafters');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('button', { name: 'Rename team Drafters' }).click();
    const renaming = page.getByRole('dialog', { name: 'Rename Drafters' });
    await renaming.getByLabel('Team name').fill('Writers');
    await renaming.getByRole('button', { name: 'Save name' }).click();
    await renaming.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Members of team Writers' }).click();
    const teamDialog = page.getByRole('dialog', { name: 'Members of Writers' });
    await teamDialog.getByText('No members yet.').waitFor();
    // The member picker searches as one types: the newcomer by their e-mail address.
    await teamDialog.getByRole('button', { name: 'Add a member' }).click();
    await page.getByRole('searchbox', { name: 'Add to Writers' }).fill(NEWCOMER);
    await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await teamDialog.getByRole('button', { name: `Remove ${name} from Writers` }).waitFor();
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/team-members.png` });
    await teamDialog.getByRole('button', { name: 'Close' }).click();
    await page.getByText('1 member · 0 spaces').waitFor();
    const teams = await api(`/v1/orgs/${world.orgId}/teams`);
    const writers = teams.body.items.find((t: { title: string }) => t.title === 'Writers');
    const teamMembers = await api(`/v1/orgs/${world.orgId}/teams/${writers.id}/members`);
    expect(teamMembers.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([
      newcomer.id,
    ]);

    // The space, shared with the team as editors from its Share dialog.
    await page.getByRole('navigation').getByRole('link', { name: 'Handbook' }).click();
    await page.getByRole('button', { name: 'Share Handbook' }).focus();
    await page.keyboard.press('Enter');
    const share = page.getByRole('dialog', { name: 'Share Handbook' });
    await share.getByText('Not shared with anyone yet.').waitFor();
    await choose(page, 'Person or team', 'Team: Writers');
    await choose(page, 'Role', 'Editor');
    await share.getByRole('button', { name: 'Give access' }).click();
    await share.getByRole('combobox', { name: 'Role of Team: Writers' }).waitFor();
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/share-space.png` });
    const granted = await api(`${world.base}/permissions/teams`);
    expect(
      granted.body.items.map((g: { permission: string; team: { id: string } }) => [g.team.id, g.permission]),
    ).toEqual([[writers.id, 'edit']]);
    await page.keyboard.press('Escape');
    await share.waitFor({ state: 'detached' });
    // Radix gives the focus back to the trigger just after the dialog is gone: wait for it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Share Handbook');

    // A collection, shared with the newcomer as a reader from its own Share dialog.
    await page.getByRole('navigation').getByRole('link', { name: 'Guides' }).click();
    await page.getByRole('button', { name: 'Share Guides' }).click();
    const shareCollection = page.getByRole('dialog', { name: 'Share Guides' });
    await choose(page, 'Person or team', `${name} (${NEWCOMER})`);
    await shareCollection.getByRole('button', { name: 'Give access' }).click();
    await shareCollection.getByRole('button', { name: `Remove access for ${name}` }).waitFor();
    await quietAndAccessible();
    const readers = await api(`/v1/collections/${collectionId}/permissions/users`);
    expect(
      readers.body.items.map((g: { permission: string; user: { id: string } }) => [g.user.id, g.permission]),
    ).toEqual([[newcomer.id, 'read']]);
    await shareCollection.getByRole('button', { name: 'Close' }).click();

    // The team deleted, after confirming: its grant on the space goes with it.
    await page.getByRole('navigation').getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('button', { name: 'Delete team Writers' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete the team Writers?' })
      .getByRole('button', { name: 'Delete team' })
      .click();
    await page.getByText('No teams yet.').waitFor();
    expect((await api(`${world.base}/permissions/teams`)).body.items).toEqual([]);
    await page.close();
  }, 120_000);
});
