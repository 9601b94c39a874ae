/**
 * A published site as a reader uses it, in a real browser: the page and its sidebar, a nested page
 * reached through the sidebar, the search box, the theme toggle, a phone-width layout, page feedback
 * (with and without JavaScript), no console errors, no Content-Security-Policy violation (the site's
 * policy lets its own scripts and styles run) and no serious accessibility violations. Screenshots go to test-output/ (not committed).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app.js';
import { expectAccessible, harnessAtFreePort, listenAndLaunch, watchPage } from '../helpers/app-browser.js';
import { browserMissing, collectConsoleErrors } from '../helpers/browser.js';
import { edit, type PublishedWorld, publishedWorld } from '../helpers/published.js';

const OUTPUT = 'test-output';

describe.skipIf(browserMissing)('a published site in a browser', () => {
  let h: Harness;
  let w: PublishedWorld;
  let browser: Browser;
  let port: number;

  beforeAll(async () => {
    ({ h, port } = await harnessAtFreePort());
    w = await publishedWorld(h, 'public');
    // The toggle is the default; set it explicitly so the test does not depend on that default.
    const put = await w.admin.client.put(`${w.api}/customization`, { themes: { default: 'light', toggeable: true } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    browser = await listenAndLaunch(h, port, OUTPUT);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('reads a page, follows the sidebar, searches, toggles the theme', async () => {
    expect(w.siteUrl).toBe(`http://127.0.0.1:${port}${w.base}`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    // The site's Content-Security-Policy lets every script and style of the site run.
    const { errors, csp: cspViolations } = await watchPage(page);
    // Console errors of failed loads do not name the resource; these do.
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(w.siteUrl);

    await expect(page.title()).resolves.toBe('Getting started | Acme Docs');
    await expect(page.locator('h1.page-title').textContent()).resolves.toBe('🚀 Getting started');
    const sidebar = page.getByRole('navigation', { name: 'Pages', exact: true });
    const sidebarLinks = (await sidebar.getByRole('link').allTextContents()).map((t) => t.trim());
    // Top-level pages and the link page; the group is a heading; closed branches show no children.
    expect(sidebarLinks).toEqual(['🚀 Getting started', 'Installation', 'Deployment', 'Website']);
    await expect(sidebar.locator('.group-title').textContent()).resolves.toBe('Advanced');
    await expect(sidebar.getByRole('link', { name: 'Getting started' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
    await page.screenshot({ path: `${OUTPUT}/published-light.png`, fullPage: true });
    await expectAccessible(page);

    // A page nested two levels down (group → Deployment → Docker), reached as a reader does: opening
    // Deployment opens its branch in the sidebar.
    await sidebar.getByRole('link', { name: 'Deployment' }).click();
    await page.waitForURL(/\/deployment$/);
    await expect(page.locator('h1.page-title').textContent()).resolves.toBe('Deployment');
    await sidebar.getByRole('link', { name: 'Docker' }).click();
    await page.waitForURL(/\/docker$/);
    await expect(page.locator('h1.page-title').textContent()).resolves.toBe('Docker');
    await expect(page.locator('nav.breadcrumbs').textContent()).resolves.toContain('Deployment');
    await expect(sidebar.getByRole('link', { name: 'Docker' }).getAttribute('aria-current')).resolves.toBe('page');

    // The search box: live results under it while typing, and the results page on submit.
    const box = page.getByRole('searchbox', { name: 'Search Acme Docs' });
    await box.fill('Zeppelin');
    const live = page.locator('#search-results');
    await live.getByRole('link', { name: /Docker/ }).waitFor({ state: 'visible' });
    await box.press('Enter');
    await page.waitForURL(/~search\?q=Zeppelin/);
    await expect(page.locator('h1.page-title').textContent()).resolves.toBe('Results for “Zeppelin”');
    const result = page.locator('ol.results').getByRole('link', { name: 'Docker' });
    expect(new URL((await result.getAttribute('href')) ?? '', page.url()).pathname).toMatch(
      new RegExp(`^${w.base}/.*docker$`),
    );
    await result.click();
    await page.waitForURL(/\/docker$/);

    // The theme toggle switches the page to dark and back, and remembers the choice.
    const toggle = page.locator('button.theme-toggle');
    await expect(toggle.isVisible()).resolves.toBe(true);
    await toggle.click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await page.goto(w.siteUrl);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.screenshot({ path: `${OUTPUT}/published-dark.png`, fullPage: true });
    await expectAccessible(page);
    await page.locator('button.theme-toggle').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');

    expect(cspViolations).toEqual([]);
    expect(errors, failed.join('\n')).toEqual([]);
    await page.close();
  }, 300_000);

  it('tabs: one panel at a time, chosen by click or arrow keys', async () => {
    await edit(w.admin.client, w.guide, [
      () => [
        {
          operation: 'insert_page',
          title: 'Packages',
          document: {
            markdown:
              '{% tabs %}\n{% tab title="npm" %}\nRun npm.\n{% endtab %}\n{% tab title="Yarn" %}\nRun yarn.\n{% endtab %}\n{% endtabs %}',
          },
        },
      ],
    ]);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    // The site's Content-Security-Policy lets every script and style of the site run.
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${w.siteUrl}/packages`);
    const npm = page.getByRole('tab', { name: 'npm' });
    const yarn = page.getByRole('tab', { name: 'Yarn' });
    expect(await npm.getAttribute('aria-selected')).toBe('true');
    await expect(page.getByRole('tabpanel').textContent()).resolves.toContain('Run npm.');
    await expect(page.getByText('Run yarn.').isVisible()).resolves.toBe(false);
    await yarn.click();
    expect(await yarn.getAttribute('aria-selected')).toBe('true');
    await expect(page.getByText('Run yarn.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Run npm.').isVisible()).resolves.toBe(false);
    await yarn.press('ArrowRight');
    expect(await npm.getAttribute('aria-selected')).toBe('true');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('npm');
    await quietAndAccessible();
    await page.close();
  }, 300_000);

  it('fits a phone: no horizontal scroll, the menu opens the sidebar', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    // The site's Content-Security-Policy lets every script and style of the site run.
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(w.siteUrl);
    await expect(page.locator('h1.page-title').textContent()).resolves.toBe('🚀 Getting started');
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await page.screenshot({ path: `${OUTPUT}/published-phone.png`, fullPage: true });
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) {
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await page
        .getByRole('navigation', { name: 'Pages', exact: true })
        .getByRole('link', { name: 'Installation' })
        .click();
      await page.waitForURL(/\/installation$/);
      await expect(page.locator('h1.page-title').textContent()).resolves.toBe('Installation');
    }
    await quietAndAccessible();
    await context.close();
  }, 300_000);

  it('page feedback: "Yes", the thank-you and a comment; without JavaScript, the form post and its thank-you', async () => {
    const put = await w.admin.client.put(`${w.api}/customization`, {
      themes: { default: 'light', toggeable: true },
      feedback: { enabled: true },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    // The site's Content-Security-Policy lets every script and style of the site run.
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${w.siteUrl}/installation`);
    const form = page.getByRole('form', { name: 'Was this page helpful?' });
    await form.getByRole('button', { name: 'Yes' }).click();
    const thanks = page.getByRole('status');
    await expect(thanks.textContent()).resolves.toBe('Thank you for your feedback!');
    expect(await thanks.isVisible()).toBe(true);
    const comment = page.getByLabel('Your comment (optional)');
    expect(await comment.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page);
    await comment.fill('Clear and short.');
    await page.getByRole('button', { name: 'Send comment' }).click();
    await page.waitForFunction(() => document.getElementById('feedback-thanks')?.textContent?.includes('comment'));
    expect(await page.locator('form.feedback').count()).toBe(0);
    await quietAndAccessible();
    await page.close();

    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const plain = await context.newPage();
    plain.setDefaultTimeout(60_000);
    const plainErrors = collectConsoleErrors(plain);
    await plain.goto(`${w.siteUrl}/installation`);
    await plain.getByRole('button', { name: 'No' }).click();
    await plain.waitForURL(/\/installation#feedback-thanks$/);
    expect(await plain.locator('#feedback-thanks').isVisible()).toBe(true);
    expect(await plain.locator('form.feedback').isVisible()).toBe(false);
    expect(plainErrors).toEqual([]);
    await context.close();
    // axe runs as a script: check the thank-you state the form post lands on in a scripted page.
    const landed = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await landed.goto(`${w.siteUrl}/installation#feedback-thanks`);
    expect(await landed.locator('#feedback-thanks').isVisible()).toBe(true);
    await expectAccessible(landed);
    await landed.close();

    const counts = await w.admin.client.post(`${w.api}/insights/events/aggregate`, {
      range: 'last24Hours',
      groupBy: [{ column: 'eventType' }, { column: 'eventPageFeedbackRating' }],
    });
    expect(counts.body.columns).toEqual([
      { column: 'eventType', values: ['page_post_feedback', 'page_post_feedback', 'page_post_feedback_comment'] },
      { column: 'eventPageFeedbackRating', values: ['bad', 'good', 'good'] },
      { column: 'eventsCount', values: [1, 1, 1] },
    ]);
  }, 300_000);
});
