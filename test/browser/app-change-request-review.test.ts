/**
 * A change request as its readers see it, in a real browser over a real server: the diff draws an
 * added image as an image (from the change request's files), not as its raw data; the actions are
 * those the server allows the person (the space's permission flags): a writer with `edit` gets no
 * "Merge" (the server answers them 403), a reviewer does. Axe, console errors and CSP violations
 * are checked.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, SpaceWorld, TestUser } from '../helpers/app.js';
import { signIn, spaceForWriters, watchPage } from '../helpers/app-browser.js';
import { browserMissing } from '../helpers/browser.js';
import { batch, newChangeRequest } from '../helpers/change-requests.js';
import { PNG } from '../helpers/fixtures.js';
import { givePassword } from '../helpers/sessions.js';

describe.skipIf(browserMissing)('a change request for its reviewers', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let world: SpaceWorld;
  let writer: TestUser;
  let reviewer: TestUser;
  let crPath: string;
  let crId: string;

  beforeAll(async () => {
    ({ h, base, browser, world, writer } = await spaceForWriters('Atlas', { Maps: 'Where things are.' }));
    reviewer = await h.member(world.orgId, 'review', { name: 'Rita Reviewer' });
    await givePassword(h.db, reviewer.user.id);
    const cr = await newChangeRequest(world, 'Add a map');
    crId = cr.id;
    const live = (await world.admin.client.get(`${world.base}/content`)).body.pages as { id: string }[];
    const edited = await batch(world, cr.id, [
      {
        operation: 'insert_files',
        files: [{ ref: 'map', name: 'map.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      { operation: 'update_page', page: live[0]?.id, document: { markdown: 'Where things are.\n\n![The map](./map)' } },
    ]);
    expect(edited.status, JSON.stringify(edited.body)).toBeLessThan(300);
    const read = await world.admin.client.get(`${world.base}/change-requests/${cr.id}`);
    crPath = new URL(read.body.urls.app).pathname;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('draws an added image as an image, and offers "Merge" only to whom the server lets merge', async () => {
    const page = await browser.newPage();
    const { quietAndAccessible } = await watchPage(page);
    await page.goto(`${base}${crPath}`);
    await signIn(page, writer.user.email);
    await page.getByRole('heading', { level: 1, name: 'Add a map' }).waitFor();
    // The image of the change request's files, in the added (or changed) block; no raw data.
    const image = page.locator('.diff-added img, .diff-changed ins img');
    await image.waitFor();
    expect(await image.getAttribute('alt')).toBe('The map');
    expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('.changes').textContent()).not.toContain('"kind"');
    // A writer (`edit`): no "Merge", which the server refuses them.
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await page.getByRole('button', { name: 'Merge' }).count()).toBe(0);
    const refused = await writer.client.post(`${world.base}/change-requests/${crId}/merge`, {});
    expect(refused.status).toBe(403);
    await quietAndAccessible();
    await page.close();

    // A reviewer: "Merge", and it merges.
    const second = await browser.newPage();
    const watched = await watchPage(second);
    await second.goto(`${base}${crPath}`);
    await signIn(second, reviewer.user.email);
    await second.getByRole('heading', { level: 1, name: 'Add a map' }).waitFor();
    await second.getByRole('button', { name: 'Merge' }).click();
    await second.getByText('Merged.').waitFor();
    await watched.quietAndAccessible();
    await second.close();
  });
});
