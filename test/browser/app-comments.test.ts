/**
 * Comments in the web app, in a real browser over a real server: one person comments on a page and
 * on a block of it (the thread shows at the block); a second person replies with a mention picked
 * from the member picker, resolves the thread, comments on a page a change request changes (the
 * thread shows under that page's diff); the members screen's search finds the first person; an invite link with limits; a team role.
 * Each screen is checked with axe and for console errors and Content-Security-Policy violations.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';
import { givePassword } from '../helpers/sessions.js';

describe.skipIf(browserMissing)('comments in the web app', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    ({ h, base, browser, world, writer } = await spaceForWriters(
      'Guide',
      { Install: 'Download the archive.\n\nRun the installer.\n\nThen configure it.' },
      {
        writerRole: 'comment',
        writerName: 'Wren Writer',
        seed: async (space, harness) => {
          admin = await harness.member(space.orgId, 'admin', { name: 'Ada Admin' });
          await givePassword(harness.db, admin.user.id);
        },
      },
    ));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function signedIn(email: string, path: string): Promise<{ page: Page; check: () => Promise<void> }> {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}${path}`);
    await signIn(page, email);
    return { page, check: quietAndAccessible };
  }

  it('comments on a page and on a block, replies with a mention, resolves; searches members, limits an invite link, sets a team role', async () => {
    const space = await world.admin.client.get(world.base);
    const spacePath = new URL(space.body.urls.app).pathname;
    const block = '“Run the installer.”';

    // The writer: a thread on the page, and one on a block, started with the keyboard.
    const first = await signedIn(writer.user.email, spacePath);
    const wp = first.page;
    await wp.getByRole('heading', { level: 2, name: 'Comments' }).waitFor();
    await wp.getByText('No comments on this page yet.').waitFor();
    await first.check();
    await wp.getByLabel('Comment on this page').fill('Should this page mention Windows?');
    await wp.locator('.page-comments').getByRole('button', { name: 'Comment', exact: true }).click();
    await wp
      .getByRole('list', { name: 'Comments on this page' })
      .getByText('Should this page mention Windows?')
      .waitFor();

    await wp.getByRole('button', { name: `Comment on ${block}` }).focus();
    await wp.keyboard.press('Enter');
    await wp.getByLabel(`New comment on ${block}`).fill('Which installer?');
    await wp
      .getByRole('complementary', { name: `Comments on ${block}` })
      .getByRole('button', { name: 'Comment', exact: true })
      .click();
    await wp
      .getByRole('complementary', { name: `Comments on ${block}` })
      .getByText('Which installer?')
      .waitFor();
    await first.check();

    const listed = await world.admin.client.get(`${world.base}/comments?order=asc`);
    const onPage = listed.body.items.map((c: { target: { page?: { id: string }; node?: { id: string } } }) => c.target);
    expect(onPage).toHaveLength(2);
    expect(onPage[0].node).toBeUndefined();
    expect(onPage[1]).toEqual(expect.objectContaining({ page: onPage[0].page, node: { id: 'block-1' } }));
    const pageComment = listed.body.items[0].id;
    await wp.close();

    // The admin: sees the block's thread at the block, replies mentioning the writer, resolves.
    const second = await signedIn(admin.user.email, spacePath);
    const ap = second.page;
    const thread = ap
      .getByRole('list', { name: 'Comments on this page' })
      .getByRole('listitem', { name: 'Comment by Wren Writer' });
    await thread.waitFor();
    await ap
      .getByRole('complementary', { name: `Comments on ${block}` })
      .getByText('Which installer?')
      .waitFor();
    const reply = thread.getByLabel('Reply to Wren Writer');
    await reply.fill('Yes, ');
    await reply.press('End');
    await reply.pressSequentially('@');
    await ap.getByLabel('Mention a member').fill('Wren');
    await ap.getByRole('button', { name: /Wren Writer/ }).click();
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByRole('list', { name: 'Replies to Wren Writer' }).getByText('Wren Writer').waitFor();
    await second.check();
    const replies = await world.admin.client.get(`${world.base}/comments/${pageComment}/replies`);
    expect(JSON.stringify(replies.body.items[0].body)).toContain(writer.user.id);

    await thread.getByRole('button', { name: 'Resolve' }).click();
    await thread.getByText('Resolved by Ada Admin.').waitFor();
    const resolved = await world.admin.client.get(`${world.base}/comments/${pageComment}`);
    expect(resolved.body.status).toBe('resolved');
    await second.check();

    // A change request: a thread on a changed page shows under that page's changes, not in the conversation.
    const cr = await newChangeRequest(world, 'Mention Windows');
    const crPages = await world.admin.client.get(`${world.base}/change-requests/${cr.id}/content/pages`);
    const installId = (crPages.body.pages ?? crPages.body.items)[0].id;
    const edited = await batch(world, cr.id, [
      { operation: 'update_page', page: installId, document: { markdown: 'Download the archive for Windows.' } },
    ]);
    expect(edited.status, JSON.stringify(edited.body)).toBeLessThan(300);
    const crBody = await world.admin.client.get(`${world.base}/change-requests/${cr.id}`);
    await ap.goto(`${base}${new URL(crBody.body.urls.app).pathname}`);
    const change = ap.getByRole('region', { name: 'Page edited: Install' });
    await change.getByText('Comment on this page').click();
    await change.getByLabel('Comment on Install').fill('Windows needs its own section.');
    await change.getByRole('button', { name: 'Comment', exact: true }).click();
    await change
      .getByRole('list', { name: 'Comments on Install' })
      .getByText('Windows needs its own section.')
      .waitFor();
    await ap.getByRole('region', { name: 'Comments' }).getByText('No comments yet.').waitFor();
    const crComments = await world.admin.client.get(`${world.base}/change-requests/${cr.id}/comments`);
    expect(crComments.body.items.map((c: { target: { page?: { id: string } } }) => c.target.page)).toEqual([
      { id: installId },
    ]);
    await second.check();

    // The members screen: the search asks the API and shows who matches.
    await ap.goto(`${base}/o/${world.orgId}/members`);
    await ap.getByLabel('Search members').fill('wren');
    await ap.getByText('1 member matches “wren”.').waitFor();
    const names = await ap.getByRole('list', { name: 'Members' }).locator('.person-name strong').allTextContents();
    expect(names).toEqual(['Wren Writer']);
    await second.check();

    // Invite links with their limits: at most 3 uses, until the end of a day.
    await ap.getByRole('button', { name: 'Allow invite links' }).click();
    await ap.getByLabel('Expires on').fill('2099-12-31');
    await ap.getByLabel('Maximum uses').fill('3');
    await ap.getByRole('button', { name: 'Create invite link' }).click();
    await ap.getByLabel('New invite link').waitFor();
    const links = await world.admin.client.get(`/v1/orgs/${world.orgId}/link-invites`);
    expect(links.body.items).toEqual([expect.objectContaining({ maxUses: 3, uses: 0 })]);
    expect(links.body.items[0].expiresAt).toMatch(/^(2099-12-31|2100-01-01)T/);
    await second.check();

    // A team admin makes a member an owner of the team.
    const team = await world.admin.client.put(`/v1/orgs/${world.orgId}/teams`, { title: 'Writers' });
    expect(team.status, JSON.stringify(team.body)).toBeLessThan(300);
    const joined = await world.admin.client.put(
      `/v1/orgs/${world.orgId}/teams/${team.body.id}/members/${writer.user.id}`,
      {},
    );
    expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300);
    await ap.goto(`${base}/o/${world.orgId}/teams`);
    await ap.getByRole('button', { name: 'Members of team Writers' }).click();
    await ap.getByRole('combobox', { name: 'Team role of Wren Writer' }).click();
    await ap.getByRole('option', { name: 'Owner' }).click();
    await expect
      .poll(async () => {
        const entries = await world.admin.client.get(`/v1/orgs/${world.orgId}/teams/${team.body.id}/members`);
        return entries.body.items.map((e: { team: { role: string } }) => e.team.role);
      })
      .toEqual(['owner']);
    await ap.getByRole('combobox', { name: 'Team role of Wren Writer' }).getByText('Owner').waitFor();
    await second.check();
    await ap.keyboard.press('Escape');

    // At a phone width the page with its threads fits, and the block's button shows (no hover there).
    await ap.setViewportSize({ width: 390, height: 844 });
    await ap.goto(`${base}${spacePath}`);
    await ap
      .getByRole('complementary', { name: `Comments on ${block}` })
      .getByText('Which installer?')
      .waitFor();
    expect(await ap.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await second.check();
    await ap.close();
  });
});
