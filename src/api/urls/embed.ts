/**
 * Link-card metadata of an outside URL (`getEmbedByUrl`, `getEmbedByUrlInSpace`): the official
 * `Embed`, of type `link`: the page's title (`og:title`, else `<title>`), its site (`og:site_name`,
 * else the host) and its icon (`<link rel=icon>`, absolute). The page is fetched through the guarded
 * outbound fetch (src/lib/fetch.ts: no private addresses unless FETCH_ALLOW_PRIVATE, a deadline, a
 * size cap of its own), and what it gave is kept {@link TTL_MS} per URL in this process, so a page
 * showing a card many times fetches it once. A URL the guard refuses is a 400; a page that cannot be
 * fetched (down, not HTML) still gets a card, titled with its URL.
 */
import type { App } from '../../http/app.js';
import { badRequest } from '../../lib/errors.js';
import { FetchError, FetchForbiddenAddressError, guardedFetch, parseHttpUrl } from '../../lib/fetch.js';
import { RecencyMap } from '../../lib/recency-map.js';

export interface EmbedObject {
  type: 'link';
  title: string;
  site: string;
  icon?: string;
}

const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 1000;
/** Enough for a page's head; the rest of a page is never read. */
const MAX_BYTES = 512 * 1024;

const cache = new RecencyMap<string, { embed: EmbedObject; at: number }>();

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };
const decodeEntities = (text: string) =>
  text
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (_m, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  const value = match?.[2] ?? match?.[3] ?? match?.[4];
  return value === undefined ? undefined : decodeEntities(value);
}

/** What the head of an HTML page says of itself. */
export function pageMetadata(html: string, base: string): { title?: string; site?: string; icon?: string } {
  const head = html.slice(0, MAX_BYTES);
  const meta = new Map<string, string>();
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const key = (attribute(tag, 'property') ?? attribute(tag, 'name'))?.toLowerCase();
    const content = attribute(tag, 'content');
    if (key && content && !meta.has(key)) meta.set(key, content);
  }
  const titleTag = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  let icon: string | undefined;
  for (const tag of head.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attribute(tag, 'href');
    if (href && (rel.includes('icon') || rel.includes('apple-touch-icon'))) {
      try {
        const absolute = new URL(href, base);
        if (absolute.protocol === 'https:' || absolute.protocol === 'http:') icon = absolute.href;
      } catch {
        // an unusable href is no icon
      }
      if (icon) break;
    }
  }
  const title = meta.get('og:title') ?? meta.get('twitter:title') ?? (titleTag ? decodeEntities(titleTag) : undefined);
  return {
    ...(title ? { title: title.slice(0, 300) } : {}),
    ...(meta.get('og:site_name') ? { site: meta.get('og:site_name')?.slice(0, 200) } : {}),
    ...(icon ? { icon } : {}),
  };
}

export async function embedOf(app: App, raw: string): Promise<EmbedObject> {
  let url: URL;
  try {
    url = parseHttpUrl(raw);
  } catch {
    throw badRequest('url must be an absolute http or https URL');
  }
  const key = url.href;
  const now = Date.now();
  const kept = cache.get(key);
  if (kept && now - kept.at < TTL_MS) return kept.embed;
  const fallback: EmbedObject = { type: 'link', title: url.href, site: url.hostname };
  let embed = fallback;
  try {
    const fetched = await guardedFetch(url.href, {
      allowPrivate: app.config.fetchAllowPrivate,
      timeoutMs: Math.min(app.config.fetchTimeoutMs, 10_000),
      maxBytes: Math.min(app.config.fetchMaxBytes, MAX_BYTES),
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
    });
    if (fetched.contentType?.includes('html')) {
      const found = pageMetadata(fetched.body.toString('utf8'), fetched.url);
      embed = { type: 'link', title: found.title ?? fallback.title, site: found.site ?? url.hostname };
      if (found.icon) embed.icon = found.icon;
    }
  } catch (error) {
    if (error instanceof FetchForbiddenAddressError) throw badRequest(`url cannot be fetched: ${error.message}`);
    if (!(error instanceof FetchError)) throw error;
  }
  cache.set(key, { embed, at: now });
  while (cache.size > MAX_ENTRIES) cache.evict();
  return embed;
}

/** Forgets every kept embed (tests). */
export function clearEmbedCache(): void {
  cache.clear();
}
