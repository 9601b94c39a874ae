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
