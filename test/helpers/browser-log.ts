/**
 * What the test's browser pages did, kept to explain a failed browser test: their console messages,
 * uncaught errors, failed requests (aborted ones too) and answers of 400 or more, with the time
 * since the test began. A failing test prints it (test/helpers/setup.ts): a flaky browser test in CI
 * otherwise leaves only "waiting for locator(…)".
 */
import type { BrowserContext, Page } from 'playwright-core';

const LIMIT = 300;
let started = Date.now();
const events: string[] = [];
const recorded = new WeakSet<Page>();

function note(page: Page, text: string) {
  let url = '';
  try {
    url = new URL(page.url()).pathname;
  } catch {}
  events.push(`+${Date.now() - started} ms ${url}: ${text}`);
  if (events.length > LIMIT) events.splice(0, events.length - LIMIT);
}

/** Records what `page` does from now on (once per page). */
export function recordPage(page: Page): void {
  if (recorded.has(page)) return;
  recorded.add(page);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      note(page, `console.${message.type()} ${message.text()}`);
  });
  page.on('pageerror', (error) => note(page, `uncaught ${error.message}`));
  page.on('requestfailed', (request) =>
    note(page, `request failed ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) note(page, `${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(page, `navigated to ${frame.url()}`);
  });
}

/** Records every page opened in `context`. */
export function recordContext(context: BrowserContext): void {
  context.on('page', recordPage);
  for (const page of context.pages()) recordPage(page);
}

/** Starts a new test's record. */
export function resetBrowserLog(): void {
  started = Date.now();
  events.length = 0;
}

/** The record so far (empty when the test opened no page). */
export function browserLog(): readonly string[] {
  return events;
}
