/**
 * The last look at a page before it is serialized: every URL attribute of the tree goes through
 * {@link safeUrl}, and one that may not be there is removed (the element stays, inert). The
 * renderers already check the URLs they take from content and customization, and render a refused
 * one as text; this pass makes that true of every attribute of every page, whatever built it.
 */
import type { Element, Root, RootContent } from 'hast';
import { safeUrl, type UrlUse } from '../../lib/safe-url.js';

/** hast property names of the attributes a browser follows or loads. */
const URL_PROPERTIES = ['href', 'src', 'action', 'formAction', 'poster', 'cite', 'xLinkHref', 'ping'] as const;

/** `src` and `poster` load an image or media; so does the `href` of `<link rel=icon>`. */
function useOf(element: Element, property: string): UrlUse {
  if (property === 'src' || property === 'poster') return 'image';
  if (property === 'href' && element.tagName === 'link') {
    const rel: unknown = element.properties.rel;
    const rels = Array.isArray(rel) ? rel.map(String) : typeof rel === 'string' ? rel.split(/\s+/) : [];
    if (rels.includes('icon')) return 'image';
  }
  return 'link';
}

function visit(node: Root | RootContent): void {
  if (node.type === 'element') {
    const properties: Record<string, unknown> = node.properties;
    for (const name of URL_PROPERTIES) {
      const value = properties[name];
      if (value === undefined || value === null) continue;
      const safe = typeof value === 'string' ? safeUrl(value, useOf(node, name)) : null;
      if (safe === null) delete properties[name];
      else properties[name] = safe;
    }
    // `srcset` lists several URLs with their sizes: Bindery never writes one, so none may be there.
    delete properties.srcSet;
    if (node.content) visit(node.content);
  }
  if ('children' in node) for (const child of node.children) visit(child);
}

/** Removes from `tree` (in place) every URL attribute that may not be on a page. */
export function sanitizeUrls(tree: Root): Root {
  visit(tree);
  return tree;
}
