/** The real-browser test helpers: finding chromium, console errors, and the accessibility check. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserMissing,
  checkAccessibility,
  collectConsoleErrors,
  collectCspViolations,
  findChromium,
  launchBrowser,
} from '../helpers/browser.js';

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it is executable, and nothing else then', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-chromium-'));
    const fake = join(dir, 'my-chromium');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    expect(findChromium({ CHROMIUM_PATH: fake })).toBe(fake);
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'absent') })).toBeNull();
  });

  it('finds `chromium` on PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-path-'));
    writeFileSync(join(dir, 'chromium'), '#!/bin/sh\n');
    chmodSync(join(dir, 'chromium'), 0o755);
    const found = findChromium({ PATH: `/nonexistent:${dir}` });
    // /usr/bin/chromium wins where Debian's package is installed.
    expect([join(dir, 'chromium'), '/usr/bin/chromium']).toContain(found);
  });
});

describe.skipIf(browserMissing)('a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    const launched = await launchBrowser();
    if (!launched) throw new Error('launchBrowser returned null although a browser is there');
    browser = launched;
  });
  afterAll(async () => browser?.close());

  it('collects console errors and uncaught exceptions', async () => {
    const page = await browser.newPage();
    const errors = collectConsoleErrors(page);
    await page.setContent(
      '<p>x</p><script>console.error("boom"); setTimeout(() => { throw new Error("late") });</script>',
    );
    await page.waitForTimeout(100);
    expect(errors).toEqual(['console: boom', 'uncaught: late']);
    await page.close();
  });

  it('collects Content-Security-Policy violations, and none where the policy allows what runs', async () => {
    const page = await browser.newPage();
    const violations = await collectCspViolations(page);
    // Served with a real header (intercepted, so nothing listens anywhere).
    const serve = async (policy: string) => {
      await page.route('http://csp.test/', (route) =>
        route.fulfill({
          contentType: 'text/html',
          headers: { 'content-security-policy': policy },
          body: '<p id="p">x</p><script>document.getElementById("p").textContent = "ran"</script>',
        }),
      );
      await page.goto('http://csp.test/');
      await page.unroute('http://csp.test/');
    };
    await serve("script-src 'none'");
    // The binding reports asynchronously: wait for the report, not for a time.
    await expect.poll(() => violations).toEqual(['script-src-elem inline']);
    expect(await page.textContent('#p')).toBe('x');
    violations.length = 0;
    await serve("script-src 'unsafe-inline'");
    expect(await page.textContent('#p')).toBe('ran');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('reports serious and critical accessibility violations, and none on a clean page', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main><img src="data:,"><button></button></main></body></html>',
    );
    const ids = (await checkAccessibility(page)).map((v) => v.id).sort();
    expect(ids).toEqual(['button-name', 'image-alt']);
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Hello</h1><img src="data:," alt="dot"></main></body></html>',
    );
    expect(await checkAccessibility(page)).toEqual([]);
    await page.close();
  });
});
