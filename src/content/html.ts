/**
 * HTML → document: parsed with a real HTML parser (hast-util-from-html, parse5 underneath), turned
 * into mdast by hast-util-to-mdast, then through the same mdast → document path as Markdown.
 */
import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { Nodes, Root } from 'mdast';
import type { JsonDocument } from './document.js';
import { mdastToDocument } from './from-mdast.js';
import { takeLeadingTitle } from './markdown.js';
import type { RefOptions } from './refs.js';

export interface HtmlOptions extends RefOptions {
  /** Base for relative link and image URLs (the page's own URL, for web pages). */
  baseUrl?: string;
  /** Keep a leading level-1 heading in the body (a paste into a page, which has its title already). */
  keepLeadingHeading?: boolean;
}

function findElement(node: HastNodes, names: string[]): Element | undefined {
  if (node.type === 'element' && names.includes(node.tagName)) return node;
  if ('children' in node) {
    for (const child of node.children) {
      const found = findElement(child as HastNodes, names);
      if (found) return found;
    }
  }
  return undefined;
}

function textContent(node: HastNodes): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((c) => textContent(c as HastNodes)).join('');
  return '';
}

function absolutize(node: Nodes, base: string): void {
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
    try {
      node.url = new URL(node.url, base).href;
    } catch {
      // Not a URL we can resolve: kept as written.
    }
  }
  if ('children' in node) for (const child of node.children) absolutize(child as Nodes, base);
}

/** The document of an HTML page (its `<main>` or `<article>` when it has one) and its title. */
export function htmlToDocument(html: string, options: HtmlOptions = {}): { document: JsonDocument; title?: string } {
  const tree: HastRoot = fromHtml(html);
  const titleElement = findElement(tree, ['title']);
  const content = findElement(tree, ['main']) ?? findElement(tree, ['article']) ?? findElement(tree, ['body']) ?? tree;
  const container: HastRoot = content.type === 'root' ? content : { type: 'root', children: [content] };
  const mdast = toMdast(container) as Root;
  if (options.baseUrl) absolutize(mdast, options.baseUrl);
  let document = mdastToDocument(mdast, options);
  // A leading level-1 heading names the page (and is not repeated in its body); else `<title>`.
  let title = titleElement ? textContent(titleElement).trim() : '';
  const leading = options.keepLeadingHeading ? null : takeLeadingTitle(document);
  if (leading) {
    document = leading.document;
    title = leading.title;
  }
  return { document, ...(title ? { title } : {}) };
}
