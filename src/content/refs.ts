/**
 * Links and images in Markdown and HTML: the stable URL forms of content references that our
 * Markdown writes (`refToUrl` in to-mdast.ts) read back into references.
 */
import type { ContentRef } from './document.js';

export interface RefOptions {
  /**
   * Maps a link, image or include URL that is not one of the stable forms (`/pages/<id>`,
   * `/files/<id>`, `/reusable-contents/<id>`, `#anchor`) to a content reference, e.g. a relative
   * path in an imported archive. null: keep the URL.
   */
  resolveUrl?: (url: string) => ContentRef | null;
}

/** Reads the stable reference forms our Markdown writes (see `refToUrl` in to-mdast.ts). */
export function urlToRef(url: string, options: RefOptions = {}): ContentRef {
  const page = /^\/pages\/([A-Za-z0-9_-]+)(?:#(.+))?$/.exec(url);
  if (page?.[1]) return page[2] ? { kind: 'anchor', anchor: page[2], page: page[1] } : { kind: 'page', page: page[1] };
  const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(url);
  if (file?.[1]) return { kind: 'file', file: file[1] };
  const reusable = /^\/reusable-contents\/([A-Za-z0-9_-]+)$/.exec(url);
  if (reusable?.[1]) return { kind: 'reusable-content', reusableContent: reusable[1] };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return options.resolveUrl?.(url) ?? { kind: 'url', url };
}
