/** Where a content reference leads in the app; `undefined` for anything a link must not open. */
import { basePath } from '../../base';
import type { ContentRef } from './types';

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** An outside URL is kept only with a scheme that cannot run code (never `javascript:` or `data:`). */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url, window.location.href);
    return SAFE_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function refHref(ref: ContentRef | undefined, spaceId: string): string | undefined {
  if (!ref) return undefined;
  switch (ref.kind) {
    case 'url':
      return ref.url ? safeHref(ref.url) : undefined;
    case 'page':
      return ref.page
        ? `${basePath}/s/${encodeURIComponent(ref.space ?? spaceId)}/~/page/${encodeURIComponent(ref.page)}`
        : undefined;
    case 'anchor':
      return ref.anchor
        ? `${ref.page ? `${basePath}/s/${encodeURIComponent(ref.space ?? spaceId)}/~/page/${encodeURIComponent(ref.page)}` : ''}#${encodeURIComponent(ref.anchor)}`
        : undefined;
    case 'file':
      return ref.file
        ? `${basePath}/v1/spaces/${encodeURIComponent(ref.space ?? spaceId)}/content/files/${encodeURIComponent(ref.file)}`
        : undefined;
    default:
      return undefined;
  }
}
