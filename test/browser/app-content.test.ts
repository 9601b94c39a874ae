/**
 * Organizing content and reviewing in the web app, in a real browser over a real server: an
 * administrator creates a collection and a space from the organization's tree, renames the space,
 * moves it into the collection and deletes it (keyboard only); finds the change request waiting for
 * their review in the organization's "Needs my review" tab, requests and removes a reviewer, sees
 * the merge rules that block its merge, replies to a comment thread with a mention and resolves it. Each screen is checked with axe and for console errors and
 * Content-Security-Policy violations, the last one at a phone width in dark mode. Screenshots go to
 * test-output/app/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { harnessAtFreePort, listenAndLaunch, APP_OUTPUT as OUTPUT, signIn, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { newChangeRequest } from '../helpers/change-requests.js';
import { givePassword } from '../helpers/sessions.js';

describe.skipIf(browserMissing)('organizing content and reviewing in the web app', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;

  beforeAll(async () => {
    let port: number;
    ({ h, port, base } = await harnessAtFreePort());
    world = await h.space('Handbook');
    writer = await h.member(world.orgId, 'edit', { name: 'Wren Writer' });
    await givePassword(h.db, world.admin.user.id);
    browser = await listenAndLaunch(h, port, OUTPUT);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('creates, renames, moves and deletes, finds a review request, requests a reviewer, sees merge blockers, replies with a mention and resolves', async () => {
    // The writer's change requests: one asks the administrator to review it, one asks nobody.
    const asWriter = { ...world, admin: writer };
    const wanted = await newChangeRequest(asWriter, 'Explain the install');
    await newChangeRequest(asWriter, 'Nobody asked');
    const requested = await writer.client.post(`${world.base}/change-requests/${wanted.id}/requested-reviewers`, {
      users: [world.admin.user.id],
    });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const comment = await writer.client.post(`${world.base}/change-requests/${wanted.id}/comments`, {
      body: { markdown: 'Is the install step clear?' },
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const rules = await world.admin.client.patch(world.base, {
      mergeRules: {
        type: 'rules',
        rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_author_to_merge' }],
      },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);

    const page = await browser.newPage();
    const { errors, quietAndAccessible } = await watchPage(page);
    const nav = page.getByRole('navigation', { name: /^Org / });

    await page.goto(`${base}/o/${world.orgId}`);
    await signIn(page, world.admin.user.email);

    // Create a collection, then a space (which opens it).
    await nav.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'Collection' }).click();
    await page.getByLabel('Collection title').fill('Guides');
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/new-collection.png` });
    await page.getByRole('button', { name: 'Create collection' }).click();
    await nav.getByRole('link', { name: 'Guides' }).waitFor();
    await nav.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'Space' }).click();
    await page.getByLabel('Space title').fill('Recipes');
    await page.getByRole('button', { name: 'Create space' }).click();
    await page.getByRole('heading', { name: 'This space has no pages yet' }).waitFor();

    // Rename it; a title the API refuses shows its message in the dialog.
    await nav.getByRole('button', { name: 'Actions for Recipes' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('Title').fill('x'.repeat(300));
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByRole('alert').waitFor();
    // The browser logs the refused request itself; that one is expected, nothing else.
    expect(errors).toEqual([expect.stringContaining('status of 400')]);
    errors.length = 0;
    await page.getByLabel('Title').fill('Cookbook');
    await page.getByRole('button', { name: 'Rename' }).click();
    await nav.getByRole('link', { name: 'Cookbook' }).waitFor();

    // Move it into the collection.
    await nav.getByRole('button', { name: 'Actions for Cookbook' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    await page.getByLabel('Move to').selectOption({ label: 'Guides' });
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/move-space.png` });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await nav
      .locator('li', { has: page.getByRole('link', { name: 'Guides' }) })
      .getByText('Cookbook')
      .waitFor();
    const spaces = await world.admin.client.get(`/v1/orgs/${world.orgId}/spaces`);
    const collections = await world.admin.client.get(`/v1/orgs/${world.orgId}/collections`);
    const cookbook = spaces.body.items.find((s: { title: string }) => s.title === 'Cookbook');
    const guides = collections.body.items.find((c: { title: string }) => c.title === 'Guides');
    expect(cookbook.parent).toBe(guides.id);

    // Delete it with the keyboard only: the menu, the confirmation, back to the organization.
    await nav.getByRole('button', { name: 'Actions for Cookbook' }).focus();
    await page.keyboard.press('Enter');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused).toBe('Rename');
    await page.keyboard.press('End');
    await expect.poll(focused).toBe('Delete');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await quietAndAccessible();
    await page.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await nav.getByRole('link', { name: 'Cookbook' }).waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: /^Org / }).waitFor();
    // Deleted (an administrator still sees it, to restore it), and gone from the organization's list.
    expect((await world.admin.client.get(`/v1/spaces/${cookbook.id}`)).body.deletedAt).toBeDefined();
    const remaining = await world.admin.client.get(`/v1/orgs/${world.orgId}/spaces`);
    expect(remaining.body.items.map((s: { title: string }) => s.title)).toEqual(['Handbook']);

    // The organization's change requests: "Needs my review" lists only the one asking the administrator.
    await nav.getByRole('link', { name: 'Change requests' }).click();
    await page.getByRole('link', { name: 'Nobody asked' }).waitFor();
    await page.getByRole('tab', { name: 'Needs my review' }).click();
    const link = page.getByRole('link', { name: 'Explain the install' });
    await link.waitFor();
    expect(await page.getByRole('link', { name: 'Nobody asked' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('review');
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/org-change-requests.png`, fullPage: true });

    // The change request, beside the organization's navigation: reply with a mention, then resolve.
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Explain the install' }).waitFor();
    await nav.waitFor();
    const reviewers = page.locator('.reviewers');
    await reviewers.getByText(world.admin.user.display_name).waitFor();
    // Request a review from the writer, then take it back.
    await page.getByRole('button', { name: 'Request a review' }).click();
    await page.getByRole('searchbox', { name: 'Request a review from' }).fill('wren');
    await page.getByRole('button', { name: /^Wren Writer/ }).click();
    await reviewers.getByText('Wren Writer').waitFor();
    await page.getByRole('button', { name: 'Remove Wren Writer from the reviewers' }).click();
    await reviewers.getByText('Wren Writer').waitFor({ state: 'detached' });
    const left = await world.admin.client.get(`${world.base}/change-requests/${wanted.id}/requested-reviewers`);
    expect(left.body.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([world.admin.user.id]);
    // The rules in force show beside "Merge"; a refused merge lists the ones that block it.
    await page.locator('.merge-rules li').first().waitFor();
    expect(await page.locator('.merge-rules li').allTextContents()).toEqual([
      '1 approval of the latest changes',
      'Merged by its author',
    ]);
    await page.getByRole('button', { name: 'Merge' }).click();
    const blocked = page.locator('.merge-blockers');
    await blocked.getByText('Merging is blocked by the merge rules:').waitFor();
    expect(await blocked.getByRole('listitem').allTextContents()).toEqual([
      'it needs 1 approval of its current revision and has 0',
      'only its author may merge it',
    ]);
    expect(errors).toEqual([expect.stringContaining('status of 409')]);
    errors.length = 0;

    const thread = page.getByRole('listitem', { name: 'Comment by Wren Writer' });
    const reply = thread.getByLabel('Reply to Wren Writer');
    await reply.fill('Yes, thanks ');
    await reply.press('End');
    // "@" opens the member picker with its search field focused: search, arrow down, Enter.
    await reply.pressSequentially('@');
    const search = page.getByRole('searchbox', { name: 'Mention a member' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.pressSequentially('wren');
    await page.getByRole('button', { name: /^Wren Writer/ }).waitFor();
    expect(await page.locator('.member-options button').count()).toBe(1);
    await quietAndAccessible();
    await page.screenshot({ path: `${OUTPUT}/mention.png` });
    await search.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await reply.inputValue()).toBe(`Yes, thanks @${writer.user.email} `);
    await expect.poll(() => reply.evaluate((el) => el === document.activeElement)).toBe(true);
    await reply.pressSequentially('have a look.');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.locator('.replies').getByText('@Wren Writer').waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await thread.getByText(`Resolved by ${world.admin.user.display_name}.`).waitFor();
    const after = await world.admin.client.get(
      `${world.base}/change-requests/${wanted.id}/comments/${comment.body.id}`,
    );
    expect(after.body.status).toBe('resolved');
    expect(after.body.replies).toBe(1);

    // At a phone width in dark mode: nothing overflows and every contrast holds.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await quietAndAccessible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    expect(overflow).toBe(false);
    await page.screenshot({ path: `${OUTPUT}/change-request-threads.png`, fullPage: true });

    // The space's own list of change requests, also beside the organization's navigation.
    await page.getByRole('main').getByRole('link', { name: 'Change requests' }).click();
    await page.getByRole('heading', { level: 1, name: 'Change requests' }).waitFor();
    await page.getByRole('link', { name: 'Explain the install' }).waitFor();
    await nav.waitFor();
    await quietAndAccessible();
    await page.close();
  }, 120_000);
});
