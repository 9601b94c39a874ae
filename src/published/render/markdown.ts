/**
 * The Markdown a published site serves for AI tools and readers who want the source: each page at its
 * address + `.md`, written from the stored Document by the same converter as the API's Markdown, with
 * every reference made an absolute address on the site (a reference to content the site does not
 * show keeps its text and loses the link).
 */
import type { JsonDocument } from '../../content/document.js';
import { expandIncludes } from '../../content/includes.js';
import { extractLinks } from '../../content/links.js';
import { documentToMarkdown } from '../../content/markdown.js';
import { type FlatPage, getDocuments } from '../../content/store.js';
import { pageLabel, type SiteReader, type SpaceContent } from '../reader.js';

type Node = Record<string, unknown>;

/** A copy of `document` whose references are URLs (`resolve` gives null for those that lead nowhere). */
export function withResolvedRefs(document: JsonDocument, resolve: (ref: unknown) => string | null): JsonDocument {
  const visit = (node: Node): Node[] => {
    const data = node.data as Node | undefined;
    let next: Node = { ...node };
    if (data && typeof data.ref === 'object' && data.ref) {
      const url = resolve(data.ref);
      if (url === null) {
        // A dead link keeps its text; a dead image disappears.
        if (node.type === 'link') return ((node.nodes as Node[]) ?? []).flatMap(visit);
        if (node.type === 'inline-image' || node.type === 'image') return [];
      } else {
        next = { ...next, data: { ...data, ref: { kind: 'url', url } } };
      }
    }
    if (Array.isArray(node.nodes)) next.nodes = (node.nodes as Node[]).flatMap(visit);
    if (Array.isArray(node.fragments)) next.fragments = (node.fragments as Node[]).flatMap(visit);
    return [next];
  };
  return {
    ...document,
    nodes: document.nodes.flatMap((n) => visit(n as unknown as Node)) as unknown as JsonDocument['nodes'],
  };
}

/** The Markdown of a page: its title, description, then its body. */
export async function pageMarkdown(
  reader: SiteReader,
  content: SpaceContent,
  entry: FlatPage,
  origin: string,
): Promise<string> {
  const page = entry.page;
  const stored = page.document ? (await getDocuments(reader.db, [page.document])).get(page.document) : undefined;
  let body = '';
  if (stored) {
    // Reusable contents in place: a reader of the Markdown has no way to follow an include.
    const document = { ...stored, nodes: await expandIncludes(reader.db, content.snapshot, stored.nodes) };
    await reader.preload(
      extractLinks(document).map((l) => l.ref),
      content,
    );
    const resolved = withResolvedRefs(document, (ref) => {
      const link = reader.link(ref as Parameters<SiteReader['link']>[0], content);
      if (!link) return null;
      return link.external || link.href.startsWith('#') ? link.href : `${origin}${link.href}`;
    });
    body = documentToMarkdown(resolved);
  }
  const head = [`# ${pageLabel(page)}`, ...(page.description ? [`> ${page.description}`] : [])].join('\n\n');
  return `${`${head}\n\n${body}`.trimEnd()}\n`;
}
