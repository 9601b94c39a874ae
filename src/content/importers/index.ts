/**
 * Imports into a change request: reads the source (`data:` or guarded http(s) fetch), converts it
 * with the importer of its kind, and places the result in a copy of the change request's tree —
 * new top-level pages, or, for `/page/{pageId}/import`, the page's new body (single-document
 * sources) or new subpages (archives and websites). The caller writes the tree as one revision.
 */

import type { Db } from '../../db/database.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { slugify, uniqueSlug } from '../../lib/slug.js';
import { markdownToDocument, splitFrontmatter, takeLeadingTitle } from '../markdown.js';
import { gitPathIndex, pageGitPath, resolveRelativeLinks } from '../relative-links.js';
import { readSource } from '../source.js';
import { type FileEntry, findPage, type PageNode, putDocument, type Snapshot } from '../store.js';
import { cloneTree, locate, slugsOf } from '../tree.js';
import type { ImportBundle, ImportContext, ImportedPage } from './types.js';
import { titleFromName } from './types.js';

export const SUPPORTED_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip'] as const;

/** Largest source read for an import (archives, documents), in bytes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export interface ImportOutcome {
  pages: PageNode[];
  files: FileEntry[];
  imported: number;
  total: number;
}

function nameOf(url: string): string {
  if (/^data:/i.test(url)) return '';
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * The importers of websites, archives, Word and HTML documents (and the HTML parser they share) are
 * loaded on their first import, not at start-up: they are large and most processes never run one.
 */
async function readBundle(db: Db, source: string, url: string, ctx: ImportContext): Promise<ImportBundle> {
  if (source === 'website') return (await import('./website.js')).importWebsite(url, ctx);
  const { body } = await readSource(url, { allowPrivate: ctx.allowPrivate, maxBytes: MAX_IMPORT_BYTES });
  const name = nameOf(url);
  if (source === 'zip') return (await import('./zip.js')).importZip(db, body);
  if (source === 'docx') return (await import('./docx.js')).importDocx(db, body, name);
  const text = body.toString('utf8');
  let page: ImportedPage;
  if (source === 'html') {
    const { htmlToDocument } = await import('../html.js');
    const { document, title } = htmlToDocument(text);
    page = { id: newId(), title: title ?? titleFromName(name), document, children: [] };
  } else {
    const { meta, body: markdown } = splitFrontmatter(text);
    let document = markdownToDocument(markdown);
    const leading = takeLeadingTitle(document);
    if (leading) document = leading.document;
    page = { id: newId(), title: meta.title ?? leading?.title ?? titleFromName(name), document, children: [] };
  }
  return { pages: [page], files: [], total: 1, imported: 1 };
}

/** Stores the bodies and turns imported pages into tree nodes with slugs unique among `siblings`. */
async function materialize(db: Db, pages: ImportedPage[], siblings: PageNode[]): Promise<PageNode[]> {
  const out: PageNode[] = [];
  for (const imported of pages) {
    const hash =
      imported.document && imported.document.nodes.length > 0 ? await putDocument(db, imported.document) : undefined;
    const node: PageNode = {
      id: imported.id,
      type: 'document',
      title: imported.title,
      slug: uniqueSlug(slugify(imported.title), slugsOf([...siblings, ...out])),
      children: [],
      ...(hash ? { document: hash } : {}),
    };
    node.children = await materialize(db, imported.children, []);
    out.push(node);
  }
  return out;
}

export async function runImport(
  db: Db,
  base: Snapshot,
  input: { source: string; url: string; pageId?: string },
  ctx: ImportContext,
): Promise<ImportOutcome> {
  if (!(SUPPORTED_SOURCES as readonly string[]).includes(input.source)) {
    throw badRequest(`body/source ${input.source} is not supported yet; use one of ${SUPPORTED_SOURCES.join(', ')}`);
  }
  const pages = cloneTree(base.pages);
  const target = input.pageId ? locate(pages, input.pageId) : undefined;
  if (input.pageId && !target) throw notFound(`page ${input.pageId} not found`);
  if (target && target.page.type !== 'document') throw badRequest('content can only be imported into a document page');

  const bundle = await readBundle(db, input.source, input.url, ctx);
  const files = [...base.files, ...bundle.files];
  const singleDocument = input.source === 'markdown' || input.source === 'html' || input.source === 'docx';
  const [imported] = bundle.pages;
  if (singleDocument && imported) {
    // One page: into a page its body is replaced, else it is a new top-level page. Its relative
    // links (archives resolve theirs by archive path) are resolved from where it lands.
    let node = target?.page;
    if (!node) {
      node = {
        id: imported.id,
        type: 'document',
        title: imported.title,
        slug: uniqueSlug(slugify(imported.title), slugsOf(pages)),
        children: [],
      };
      pages.push(node);
    }
    const entry = findPage(pages, node.id);
    const document =
      imported.document && entry
        ? resolveRelativeLinks(imported.document, pageGitPath(entry), gitPathIndex(pages, files))
        : null;
    const hash = document && document.nodes.length > 0 ? await putDocument(db, document) : undefined;
    if (hash) node.document = hash;
    else delete node.document;
  } else {
    const list = target ? target.page.children : pages;
    list.push(...(await materialize(db, bundle.pages, list)));
  }
  return { pages, files, imported: bundle.imported, total: bundle.total };
}
