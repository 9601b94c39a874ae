/**
 * A website → pages: crawls HTML pages of the start URL's origin, breadth first, honouring the
 * site's robots.txt, and makes one page per fetched page (links between them become page links).
 * Every fetch goes through the guarded fetch. Bounded by {@link WEBSITE_LIMITS}: pages, requests
 * (a fetch that fails or answers no HTML page counts too, so a site of broken links cannot make
 * the crawler fetch without end), link depth from the start page, and bytes in total and per page.
 */
import type { Nodes as HastNodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import robotsParserModule from 'robots-parser';
import { badRequest } from '../../lib/errors.js';
import { FetchError, guardedFetch } from '../../lib/fetch.js';
import { newId } from '../../lib/ids.js';
import type { ContentRef } from '../document.js';
import { htmlToDocument } from '../html.js';
import { toApiError } from '../source.js';
import { type ImportBundle, type ImportContext, type ImportedPage, titleFromName } from './types.js';

// The package is CommonJS (`module.exports = fn`) while its types declare an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export const WEBSITE_LIMITS = {
  maxPages: 50,
  /** Page fetches, answered or not (robots.txt aside). */
  maxRequests: 100,
  maxDepth: 3,
  maxBytes: 10 * 1024 * 1024,
  pageBytes: 2 * 1024 * 1024,
  timeoutMs: 10_000,
};

const USER_AGENT = 'Bindery-Importer';

/** The URL without its fragment, for identity. */
function canonical(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

function hrefs(node: HastNodes, out: string[] = []): string[] {
  if (node.type === 'element' && node.tagName === 'a' && typeof node.properties.href === 'string') {
    out.push(node.properties.href);
  }
  if ('children' in node) for (const child of node.children) hrefs(child as HastNodes, out);
  return out;
}

async function loadRobots(origin: string, ctx: ImportContext) {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const res = await guardedFetch(robotsUrl, {
      allowPrivate: ctx.allowPrivate,
      timeoutMs: WEBSITE_LIMITS.timeoutMs,
      maxBytes: 512 * 1024,
    });
    return res.status >= 200 && res.status < 300 ? robotsParser(robotsUrl, res.body.toString('utf8')) : null;
  } catch (error) {
    // A forbidden address is refused outright; an unreachable robots.txt means no rules.
    if (error instanceof FetchError && error.code === 'FETCH_FORBIDDEN_ADDRESS') throw toApiError(error);
    return null;
  }
}

export async function importWebsite(start: string, ctx: ImportContext): Promise<ImportBundle> {
  let startUrl: URL;
  try {
    startUrl = new URL(start);
  } catch {
    throw badRequest('body/url is not a valid URL');
  }
  if (startUrl.protocol !== 'http:' && startUrl.protocol !== 'https:') {
    throw badRequest('body/url of a website import must be an http(s) URL');
  }
  const origin = startUrl.origin;
  const robots = await loadRobots(origin, ctx);
  const allowed = (url: string) => robots?.isAllowed(url, USER_AGENT) !== false;

  const discovered = new Set<string>([canonical(startUrl)]);
  const queue: Array<{ url: string; depth: number }> = [{ url: canonical(startUrl), depth: 0 }];
  const fetched: Array<{ url: string; html: string }> = [];
  let bytes = 0;
  let requests = 0;
  while (
    queue.length > 0 &&
    fetched.length < WEBSITE_LIMITS.maxPages &&
    requests < WEBSITE_LIMITS.maxRequests &&
    bytes < WEBSITE_LIMITS.maxBytes
  ) {
    const { url, depth } = queue.shift() as { url: string; depth: number };
    if (!allowed(url)) continue;
    requests++;
    let body: Buffer;
    let finalUrl: string;
    try {
      const res = await guardedFetch(url, {
        allowPrivate: ctx.allowPrivate,
        timeoutMs: WEBSITE_LIMITS.timeoutMs,
        maxBytes: Math.min(WEBSITE_LIMITS.pageBytes, WEBSITE_LIMITS.maxBytes - bytes),
      });
      if (res.status < 200 || res.status >= 300 || !/html/i.test(res.contentType ?? '')) continue;
      if (new URL(res.url).origin !== origin) continue;
      body = res.body;
      finalUrl = res.url;
    } catch (error) {
      // The start page must be readable; later pages that fail are skipped (and not counted as imported).
      if (fetched.length === 0) throw toApiError(error);
      continue;
    }
    bytes += body.length;
    const html = body.toString('utf8');
    // A redirect may land on a page already fetched.
    const landed = canonical(new URL(finalUrl));
    if (fetched.some((page) => page.url === landed)) continue;
    fetched.push({ url: landed, html });
    // Links of the deepest pages are counted as found, not followed.
    for (const href of hrefs(fromHtml(html))) {
      let next: URL;
      try {
        next = new URL(href, finalUrl);
      } catch {
        continue;
      }
      if (next.origin !== origin) continue;
      const key = canonical(next);
      if (discovered.has(key)) continue;
      discovered.add(key);
      if (depth < WEBSITE_LIMITS.maxDepth) queue.push({ url: key, depth: depth + 1 });
    }
  }
  if (fetched.length === 0) throw badRequest(`${start} has no HTML page that may be imported`);

  const ids = new Map(fetched.map((page) => [page.url, newId()]));
  const pages: ImportedPage[] = fetched.map((page) => {
    const resolveUrl = (url: string): ContentRef | null => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return null;
      }
      const id = ids.get(canonical(target));
      if (!id) return null;
      const anchor = target.hash.slice(1);
      return anchor ? { kind: 'anchor', anchor, page: id } : { kind: 'page', page: id };
    };
    const { document, title } = htmlToDocument(page.html, { baseUrl: page.url, resolveUrl });
    const name = new URL(page.url).pathname;
    return {
      id: ids.get(page.url) as string,
      title: title ?? titleFromName(name === '/' ? 'home' : name),
      document,
      children: [],
    };
  });
  return { pages, files: [], total: discovered.size, imported: pages.length };
}
