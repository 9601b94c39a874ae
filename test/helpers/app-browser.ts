/**
 * What every browser test of the app (and of published sites) sets up the same way: a harness whose
 * PUBLIC_URL is the origin the browser will use, the server listening there, a browser, and per page
 * the checks each screen must pass (axe, no console error, no Content-Security-Policy violation).
 *
 *   const { h, port, base } = await harnessAtFreePort();   // seed data here, before listening
 *   browser = await listenAndLaunch(h, port, APP_OUTPUT);
 *   const { errors, quietAndAccessible } = await watchPage(page);
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createHarness, type Harness } from './app.js';
import { checkAccessibility, collectConsoleErrors, collectCspViolations, launchBrowser } from './browser.js';
import { freePort } from './ports.js';
import { PASSWORD } from './sessions.js';

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
 * Waits until a Radix Select opened from the keyboard has moved the focus to its chosen option: the
 * arrow keys and Enter pressed before then reach the trigger, and nothing is chosen.
 */
export async function optionFocused(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'option');
}

/** Signs in through the app's own form (the page shows it: a screen that needs a session). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
