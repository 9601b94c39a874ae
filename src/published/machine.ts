/**
 * The files a site serves to machines at its root: `robots.txt`, `sitemap.xml` (public sites only:
 * an unlisted or private site is not to be indexed), `llms.txt` (the page list, linking each page's
 * Markdown) and `llms-full.txt` (every page's Markdown), as on GitBook.
 */

import { siteCustomization } from '../sites/customization.js';
import { type Rendered, rendered } from './cache.js';
import type { SiteReader, SpaceContent } from './reader.js';
import { pageMarkdown } from './render/markdown.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (value: string) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string);

/** The pages a machine is told about: document pages that are not hidden. */
function listed(content: SpaceContent) {
  return content.documents.filter((d) => !d.page.hidden);
}

/** A space's heading in llms.txt: its section and its title when there are several. */
function heading(reader: SiteReader, content: SpaceContent): string {
  const space = content.space.title;
  return content.section && reader.sections().length > 1 ? `${content.section.title} › ${space}` : space;
}

/** The machine file `name` of the site; null when there is none by that name (or not for this site). */
export async function machineFile(
  reader: SiteReader,
  name: string,
  isPublic: boolean,
  origin: string,
): Promise<Rendered | null> {
  const absolute = (href: string) => `${origin}${href}`;
  switch (name) {
    case 'robots.txt': {
      const body = isPublic
        ? `User-agent: *\nAllow: /\n\nSitemap: ${absolute(reader.href('/sitemap.xml'))}\n`
        : 'User-agent: *\nDisallow: /\n';
      return rendered(200, 'text/plain; charset=utf-8', body);
    }
    case 'sitemap.xml': {
      if (!isPublic) return null;
      const urls: string[] = [];
      for (const content of await reader.allContents()) {
        for (const entry of listed(content)) urls.push(absolute(reader.pageHref(content, entry)));
      }
      const body = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...[...new Set(urls)].map((url) => `<url><loc>${xml(url)}</loc></url>`),
        '</urlset>',
        '',
      ].join('\n');
      return rendered(200, 'application/xml; charset=utf-8', body);
    }
    case 'llms.txt': {
      const title = siteCustomization(reader.model.site).title ?? reader.model.site.title;
      const lines = [`# ${title}`, ''];
      for (const content of await reader.allContents()) {
        const pages = listed(content);
        if (pages.length === 0) continue;
        lines.push(`## ${heading(reader, content)}`, '');
        for (const entry of pages) {
          const description = entry.page.description ? `: ${entry.page.description}` : '';
          lines.push(`- [${entry.page.title}](${absolute(reader.markdownHref(content, entry))})${description}`);
        }
        lines.push('');
      }
      return rendered(200, 'text/plain; charset=utf-8', lines.join('\n'));
    }
    case 'llms-full.txt': {
      const parts: string[] = [];
      for (const content of await reader.allContents()) {
        for (const entry of listed(content)) {
          const source = absolute(reader.pageHref(content, entry));
          parts.push(`${(await pageMarkdown(reader, content, entry, origin)).trimEnd()}\n\nSource: ${source}\n`);
        }
      }
      return rendered(200, 'text/plain; charset=utf-8', parts.join('\n---\n\n'));
    }
    default:
      return null;
  }
}
