/**
 * Real-browser tests: Debian's `chromium` driven by playwright-core (which downloads no browser of its
 * own). Where no chromium is installed the browser tests skip with a plain message, except when a
 * browser is required (CI=true or REQUIRE_BROWSER=1): then launching fails, so a CI machine without
 * a browser cannot pass by skipping.
 *
 *   describe.skipIf(browserMissing)('…', () => { let browser = await launchBrowser(); … });
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { recordContext, recordPage } from './browser-log.js';

const SKIP_MESSAGE = 'browser tests skipped: chromium not installed (apt-get install -y chromium)';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The chromium binary: `CHROMIUM_PATH`, else /usr/bin/chromium, else `chromium` on PATH; null when none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  if (executable('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, 'chromium'))) return join(dir, 'chromium');
  }
  return null;
}

/** True where a browser must be there (CI): a missing one is then a failure, not a skip. */
export const browserRequired = process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1';

const chromiumPath = findChromium();

/** For `describe.skipIf(browserMissing)`: no chromium here and none is required. */
export const browserMissing = chromiumPath === null && !browserRequired;

if (browserMissing) process.stderr.write(`${SKIP_MESSAGE}\n`);

/**
 * Launches headless chromium (`--no-sandbox`: tests run as root in containers, where the sandbox
 * cannot start). Null when none is installed and none is required; throws when one is required.
 */
export async function launchBrowser(): Promise<Browser | null> {
  if (chromiumPath === null) {
    if (browserRequired) {
      throw new Error(
        'a browser is required (CI=true or REQUIRE_BROWSER=1) but chromium is not installed: apt-get install -y chromium, or set CHROMIUM_PATH',
      );
    }
    return null;
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  // Every page it opens is recorded, for a failed test to print (browser-log.ts).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    recordContext(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    recordPage(page);
    return page;
  };
  return browser;
}

/**
 * Collects what a page reports as errors from now on: console.error messages, uncaught exceptions
 * and failed requests (not those the page aborted itself). The returned array fills as the page runs; assert it is empty at the end.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'unknown';
    // An aborted request is one the page gave up on itself (a query cancelled as its screen went
    // away, a navigation replacing the document), not a failure the person would see.
    if (reason === 'net::ERR_ABORTED') return;
    errors.push(`request failed: ${request.url()} (${reason})`);
  });
  return errors;
}

/**
 * Collects the page's Content-Security-Policy violations from now on (every document it loads): the
 * `securitypolicyviolation` events, as `<directive> <blocked URI or 'inline'>`. The listener is
 * added by the browser itself, before the page's own scripts, and reports through a binding, so the
 * page's CSP does not stop it. Assert the array is empty at the end.
 */
export async function collectCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__binderyCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (globalThis as unknown as { __binderyCspViolation(text: string): void }).__binderyCspViolation;
      report(`${event.effectiveDirective} ${event.blockedURI || 'inline'}`);
    });
  });
  return violations;
}

export interface AccessibilityViolation {
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  helpUrl: string;
  /** CSS selectors of the offending elements. */
  targets: string[];
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/**
 * Runs axe-core in the page (its source injected, so the page's own CSP or bundles do not matter)
 * and returns the violations of impact serious or critical, optionally limited to `selector` (the
 * rules about the whole page, such as landmarks, run only without one) and to the axe rules `rules`
 * (on a very large page a run takes minutes on a busy machine: check a part, and the page's rules).
 */
export async function checkAccessibility(
  page: Page,
  selector?: string,
  rules?: string[],
): Promise<AccessibilityViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async (context) => {
      type AxeResult = {
        violations: Array<{
          id: string;
          impact?: string | null;
          help: string;
          helpUrl: string;
          nodes: Array<{ target: unknown[] }>;
        }>;
      };
      const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } })
        .axe;
      const result = await axe.run(context.selector ?? document, context.rules ? { runOnly: context.rules } : {});
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        targets: v.nodes.map((n) => n.target.map(String).join(' ')),
      }));
    },
    { selector: selector ?? null, rules: rules ?? null },
  );
  return violations.filter((v): v is AccessibilityViolation => v.impact === 'serious' || v.impact === 'critical');
}

/** Starts `app` on a free loopback port (a browser needs a real socket) and returns its base URL. */
export async function listenOnLoopback(app: { listen(options: { port: number; host: string }): Promise<string> }) {
  return app.listen({ port: 0, host: '127.0.0.1' });
}
