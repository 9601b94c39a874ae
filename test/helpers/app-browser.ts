/**
 * What every browser test of the app (and of published sites) sets up the same way: a harness whose
 * PUBLIC_URL is the origin the browser will use, the server listening there, a browser, and per page
 * the checks each screen must pass (axe, no console error, no Content-Security-Policy violation).
 *
 *   const { h, port, base } = await harnessAtFreePort();   // seed data here, before listening
 *   browser = await listenAndLaunch(h, port, APP_OUTPUT);
 *   const { errors, quietAndAccessible } = await watchPage(page);
 *
 * The editor's journeys start from the same world: {@link spaceForWriters}.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Role } from '../../src/lib/schemas.js';
import { createHarness, type Harness, type SpaceWorld, type TestUser } from './app.js';
import { checkAccessibility, collectConsoleErrors, collectCspViolations, launchBrowser } from './browser.js';
import { mergeChanges } from './change-requests.js';
import { freePort } from './ports.js';
import { givePassword, PASSWORD } from './sessions.js';

/** Where the app's browser tests write their screenshots (not committed). */
export const APP_OUTPUT = 'test-output/app';

type HarnessOptions = NonNullable<Parameters<typeof createHarness>[0]>;

/**
 * A harness on the database of this run whose PUBLIC_URL is `base`, the origin of a loopback port
 * free right now: the app's links and its CSP name that origin, so the browser must reach it there.
 * It is not listening yet (seed it first, then `listenAndLaunch`).
 */
export async function harnessAtFreePort(
  options: Omit<HarnessOptions, 'publicUrl'> = {},
): Promise<{ h: Harness; port: number; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const h = await createHarness({ ...options, publicUrl: base });
  return { h, port, base };
}

/**
 * Starts the harness's server on `port` and launches the browser; makes the `output` folder for
 * screenshots when given. Only for a `describe.skipIf(browserMissing)`: there a browser is present,
 * so a null launch is a failure.
 */
export async function listenAndLaunch(h: Harness, port: number, output?: string): Promise<Browser> {
  await h.app.listen({ port, host: '127.0.0.1' });
  const launched = await launchBrowser();
  if (!launched) throw new Error('launchBrowser returned null although a browser is there');
  if (output) mkdirSync(output, { recursive: true });
  return launched;
}

/** Expects no serious or critical axe violation on the page. */
export async function expectAccessible(page: Page): Promise<void> {
  const violations = await checkAccessibility(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

/**
 * Records the page's console errors and CSP violations from now on (call before its first `goto`);
 * `quietAndAccessible` expects the page accessible and both lists still empty. A test that expects
 * an error (a refused request the browser logs) takes it out of `errors` before the next check.
 */
export async function watchPage(page: Page) {
  const errors = collectConsoleErrors(page);
  const csp = await collectCspViolations(page);
  async function quietAndAccessible(): Promise<void> {
    await expectAccessible(page);
    expect(errors, 'console errors').toEqual([]);
    expect(csp, 'CSP violations').toEqual([]);
  }
  return { errors, csp, quietAndAccessible };
}

/**
 * Waits until a Radix Select opened from the keyboard has moved the focus to its chosen option, and
 * left it there for a few frames: the arrow keys and Enter pressed before then reach the trigger;
 * and Radix focuses the chosen option again once its list is placed and once a scroll button
 * appears, which undid an ArrowUp pressed in between (Enter then chose the old option).
 */
export async function optionFocused(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((done) => {
        const focused = document.activeElement;
        if (focused?.getAttribute('role') !== 'option') return done(false);
        let frames = 0;
        const check = () => {
          if (document.activeElement !== focused) return done(false);
          if (++frames >= 3) return done(true);
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/** Signs in through the app's own form (the page shows it: a screen that needs a session). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** What {@link spaceForWriters} sets up. */
export interface WritersWorld {
  h: Harness;
  base: string;
  browser: Browser;
  world: SpaceWorld;
  /** A member of `writerRole` with a password, to sign in with. */
  writer: TestUser;
  /** The live pages' ids by title. */
  pageIds: Record<string, string>;
}

/**
 * A space titled `title` whose live content is `pages` (title → Markdown, merged by a change
 * request), a member of `writerRole` (default `edit`) who can sign in, then `seed` (more members,
 * a site…), then the server listening and a browser.
 */
export async function spaceForWriters(
  title: string,
  pages: Record<string, string>,
  options: {
    writerRole?: Role;
    writerName?: string;
    output?: string;
    seed?: (world: SpaceWorld, h: Harness) => Promise<void>;
  } = {},
): Promise<WritersWorld> {
  const { h, port, base } = await harnessAtFreePort();
  const world = await h.space(title);
  await mergeChanges(
    world,
    'Start',
    Object.entries(pages).map(([page, markdown]) => ({
      operation: 'insert_page',
      title: page,
      document: { markdown },
    })),
  );
  const live = (await world.admin.client.get(`${world.base}/content`)).body.pages as { id: string; title: string }[];
  const pageIds = Object.fromEntries(live.map((page) => [page.title, page.id]));
  const writer = await h.member(
    world.orgId,
    options.writerRole ?? 'edit',
    options.writerName ? { name: options.writerName } : {},
  );
  await givePassword(h.db, writer.user.id);
  await options.seed?.(world, h);
  const browser = await listenAndLaunch(h, port, options.output);
  return { h, base, browser, world, writer, pageIds };
}
