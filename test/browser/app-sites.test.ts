/**
 * The web app's administration of an organization, in a real browser over a real server with a job
 * worker: an admin creates a site publishing a space, publishes it and reads it, sees a merged change
 * and a new title there after a re-visit; manages the site's sections and share links; creates a
 * webhook, sends it a test event, sees the delivery arrive and redelivers it; filters and pages the
 * audit log. Each screen is checked with axe and for console errors and Content-Security-Policy
 * violations, at 390px wide in dark mode too. Screenshots go to test-output/app/.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld } from '../helpers/app.js';
import {
  harnessAtFreePort,
  listenAndLaunch,
  APP_OUTPUT as OUTPUT,
  optionFocused,
  signIn,
  watchPage,
} from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { mergeChanges } from '../helpers/change-requests.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { givePassword } from '../helpers/sessions.js';

describe.skipIf(browserMissing)('administering sites, webhooks and the audit log in the web app', () => {
  let h: Harness;
  let database: FreshDatabase;
  let receiver: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let base: string;
  let world: SpaceWorld;

  beforeAll(async () => {
    // A database of its own: the job worker that delivers webhooks must not take other files' jobs.
    database = await freshDatabase('app-sites');
    receiver = await startReceiver();
    let port: number;
    ({ h, port, base } = await harnessAtFreePort({
      ownDatabase: database.url,
      fetchAllowPrivate: true,
      jobConcurrency: 1,
      jobPollMs: 100,
    }));
    world = await h.space('Handbook');
    await mergeChanges(world, 'Start', [
      { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Install\n\nRun the installer.' } },
    ]);
    const reference = await world.admin.client.post(`/v1/orgs/${world.orgId}/spaces`, { title: 'Reference' });
    expect(reference.status).toBe(201);
    await givePassword(h.db, world.admin.user.id);
    browser = await listenAndLaunch(h, port, OUTPUT);
    context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('creates and publishes a site, manages it, delivers a webhook and filters the audit log', async () => {
    const page = await context.newPage();
    const watched = await watchPage(page);
    const { errors, csp } = watched;
    async function quietAndAccessible(screenshot: string) {
      await watched.quietAndAccessible();
      await page.screenshot({ path: `${OUTPUT}/${screenshot}.png`, fullPage: true });
    }
    const nav = page.getByRole('navigation', { name: /^Org / });
    async function atPhoneWidthInDarkMode(check: () => Promise<void>) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
      await check();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
    }

    // Sign in at the organization, then reach its sites from its navigation landmark.
    await page.goto(`${base}/o/${world.orgId}`);
    await signIn(page, world.admin.user.email);
    await nav.getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
    await page.getByText('No sites yet.').waitFor();

    // A new site publishing the space, made in a dialog with the keyboard alone.
    await page.getByRole('button', { name: 'New site' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New site' });
    await page.keyboard.type('Handbook site'); // the dialog's first field has the focus
    expect(await dialog.getByLabel('Site title').inputValue()).toBe('Handbook site');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // opens the visibility listbox on the current value
    await page.getByRole('option', { name: 'Public' }).waitFor();
    await optionFocused(page);
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Unlisted' }).and(page.locator('[data-highlighted]')).waitFor();
    await page.keyboard.press('Enter');
    const visibility = dialog.getByRole('combobox', { name: 'Visibility' });
    await expect.poll(() => visibility.textContent()).toContain('Unlisted');
    // Radix gives the focus back to the trigger a moment after the choice: Tab only from there.
    await expect.poll(() => visibility.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Handbook' }).isChecked()).toBe(true);
    await quietAndAccessible('site-new');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // "Create site"

    await page.getByRole('heading', { level: 1, name: 'Handbook site' }).waitFor();
    const sites = await world.admin.client.get(`/v1/orgs/${world.orgId}/sites`);
    expect(sites.body.items.map((s: { title: string; visibility: string }) => [s.title, s.visibility])).toEqual([
      ['Handbook site', 'unlisted'],
    ]);
    const site = sites.body.items[0];
    // The screen answers the Site's urls.app.
    expect(new URL(page.url()).pathname).toBe(new URL(site.urls.app).pathname);
    await page.getByRole('button', { name: 'Remove Handbook' }).waitFor();
    await page.getByText('Not published.').waitFor();
    await quietAndAccessible('site');

    // Publish, then read the published site.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const published = page.getByRole('link', { name: /\/sites\// });
    await published.waitFor();
    const publishedUrl = await published.getAttribute('href');
    expect(publishedUrl).toBe(
      (await world.admin.client.get(`/v1/orgs/${world.orgId}/sites/${site.id}`)).body.urls.published,
    );
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    await published.click();
    await page.getByText('Run the installer.').waitFor();
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Handbook site' }).waitFor();

    // Appearance: a published title and a primary colour.
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByLabel('Published title').fill('Handbook docs');
    await page.getByLabel('Primary colour, light theme').fill('#aa3311');
    await page.getByLabel('Logo address').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save appearance' }).click();
    // The API's own message, next to the form.
    await page.getByRole('alert').filter({ hasText: /logo/ }).waitFor();
    // The browser logs the refused request; that one is expected.
    expect(errors).toEqual([expect.stringContaining('400 (Bad Request)')]);
    errors.length = 0;
    await page.getByLabel('Logo address').fill('');
    await page.getByRole('button', { name: 'Save appearance' }).click();
    await page.getByText('Saved.').waitFor();
    const customization = await world.admin.client.get(`/v1/orgs/${world.orgId}/sites/${site.id}/customization`);
    expect([customization.body.title, customization.body.styling.primaryColor.light]).toEqual([
      'Handbook docs',
      '#aa3311',
    ]);
    await quietAndAccessible('site-appearance');

    // A change merged through the API, and the new title, show on the published site after a re-visit.
    await mergeChanges(world, 'Configure', [
      {
        operation: 'insert_page',
        title: 'Configuration',
        document: { markdown: 'Configuration lives in `bindery.toml`.' },
      },
    ]);
    await page.goto(`${publishedUrl}/configuration`);
    await page.getByText('Configuration lives in').waitFor();
    await page.getByText('Handbook docs').first().waitFor();
    await page.screenshot({ path: `${OUTPUT}/site-published.png` });
    await page.goto(`${base}${new URL(site.urls.app).pathname}`);

    // Sections: adding one gathers the site spaces into a default section; removing it asks first.
    await page.getByRole('heading', { level: 1, name: 'Handbook site' }).waitFor();
    await page.getByLabel('Section title').fill('Reference');
    await page.getByRole('combobox', { name: 'Its first space' }).click();
    await page.getByRole('option', { name: 'Handbook' }).click();
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByRole('heading', { level: 3, name: /Reference/ }).waitFor();
    await page.getByRole('heading', { level: 3, name: /Handbook site/ }).waitFor();
    await page.getByRole('button', { name: 'Remove section Reference' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove the section Reference?' });
    await quietAndAccessible('site-remove-section');
    await confirm.getByRole('button', { name: 'Remove section' }).click();
    await page.getByRole('heading', { level: 3, name: /Reference/ }).waitFor({ state: 'detached' });
    const sections = await world.admin.client.get(`/v1/orgs/${world.orgId}/sites/${site.id}/sections`);
    expect(sections.body.items.map((s: { title: string }) => s.title)).toEqual(['Handbook site']);

    // Another space added, then removed after a confirmation.
    await page.getByRole('combobox', { name: 'Space to add' }).click();
    await page.getByRole('option', { name: 'Reference' }).click();
    await page.getByRole('button', { name: 'Add space' }).click();
    await page.getByRole('button', { name: 'Remove Reference' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove space' }).click();
    await page.getByRole('button', { name: 'Remove Reference' }).waitFor({ state: 'detached' });
    const siteSpaces = await world.admin.client.get(`/v1/orgs/${world.orgId}/sites/${site.id}/site-spaces`);
    expect(siteSpaces.body.items.map((s: { space: { title: string } }) => s.space.title)).toEqual(['Handbook']);

    // Settings: the visibility, through a Select.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('combobox', { name: 'Visibility' }).click();
    await page.getByRole('option', { name: 'Public' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await world.admin.client.get(`/v1/orgs/${world.orgId}/sites/${site.id}`)).body.visibility).toBe('public');

    // Share links: create, copy, revoke.
    await page.getByRole('tab', { name: 'Share links' }).click();
    await page.getByLabel('Share link name').fill('Reviewers');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const address = page.getByRole('textbox', { name: 'Reviewers' });
    await address.waitFor();
    expect(await address.inputValue()).toContain('share=');
    await page.getByRole('button', { name: 'Copy Reviewers' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await address.inputValue());
    await quietAndAccessible('site-share-links');
    await page.getByRole('button', { name: 'Revoke Reviewers' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No share links.').waitFor();

    // At phone width, in dark mode.
    await atPhoneWidthInDarkMode(async () => {
      await page.getByRole('tab', { name: 'Content' }).click();
      await quietAndAccessible('site-phone-dark');
    });
    // Unpublished, the site is no longer served.
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText('Not published.').waitFor();
    expect((await h.anonymous.get(new URL(publishedUrl as string).pathname)).status).toBe(404);

    // Webhooks: create one (its secret shown once), send it a test event, see it delivered, redeliver.
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const webhookDialog = page.getByRole('dialog', { name: 'New webhook' });
    await webhookDialog.getByLabel('Receiver address').fill(receiver.url);
    await webhookDialog.getByLabel('Events').fill('webhook.ping, site.*');
    await webhookDialog.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await webhookDialog.locator('code').textContent();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await webhookDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: receiver.url }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(1, 30_000);
    expect(receiver.received[0]?.verified).toMatchObject({ type: 'webhook.ping' });
    await page.getByRole('combobox', { name: 'Delivery status' }).click();
    await page.getByRole('option', { name: 'Succeeded' }).click();
    await untilVisible(page, page.getByRole('cell', { name: 'webhook.ping' }));
    await quietAndAccessible('webhook');
    await page.getByRole('button', { name: /^Redeliver webhook\.ping/ }).click();
    await receiver.waitFor(2, 30_000);
    expect(receiver.received[1]?.verified).toMatchObject({ type: 'webhook.ping' });
    await untilVisible(page, page.getByRole('cell', { name: /^2 \(last: 200/ }));
    await atPhoneWidthInDarkMode(() => quietAndAccessible('webhook-phone-dark'));
    // A second webhook, deleted from the list after a confirmation.
    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver address').fill('https://example.com/unused');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Delete the webhook to https://example.com/unused' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('link', { name: 'https://example.com/unused' }).waitFor({ state: 'detached' });
    const webhooks = await world.admin.client.get(`/v1/orgs/${world.orgId}/webhooks`);
    expect(webhooks.body.items.map((w: { url: string }) => w.url)).toEqual([receiver.url]);

    // The audit log: every event, then filtered by action, by actor and by days, paged. A few more
    // events first, so that there is a second page of 20 whatever the count so far.
    for (const name of ['One', 'Two', 'Three']) {
      const link = await world.admin.client.post(`/v1/orgs/${world.orgId}/sites/${site.id}/share-links`, { name });
      expect(link.status).toBe(201);
    }
    await nav.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const total = (await world.admin.client.get(`/v1/orgs/${world.orgId}/audit-events?limit=1`)).body.count as number;
    expect(total).toBeGreaterThan(20);
    await page.getByText(`${total} events.`).waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2').waitFor();
    await quietAndAccessible('audit');
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Site published', exact: true }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 event.').waitFor();
    await page.getByRole('cell', { name: /\(site\.published\)/ }).waitFor();
    await page.getByText('Page 1').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(`${total} events.`).waitFor();
    await page.getByRole('combobox', { name: 'Actor' }).click();
    await page.getByRole('option', { name: world.admin.user.display_name }).click();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From date').fill(day);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No events match.').waitFor();
    await page.getByLabel('From date').fill('');
    await page.getByLabel('To date').fill(day);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const byAdmin = (
      await world.admin.client.get(`/v1/orgs/${world.orgId}/audit-events?limit=1&actor=${world.admin.user.id}`)
    ).body.count as number;
    expect(byAdmin).toBeGreaterThan(0);
    await page.getByText(`${byAdmin} ${byAdmin === 1 ? 'event' : 'events'}.`).waitFor();
    await quietAndAccessible('audit-filtered');
    await atPhoneWidthInDarkMode(() => quietAndAccessible('audit-phone-dark'));
    await page.close();
  });
});

/** Waits for `locator`, refreshing the list (its "Refresh" button) while the worker catches up. */
async function untilVisible(page: Page, locator: ReturnType<Page['locator']>) {
  for (let i = 0; i < 40; i++) {
    if (await locator.first().isVisible()) return;
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(250);
  }
  await locator.first().waitFor({ timeout: 1_000 });
}
