/**
 * What the content presenters need loaded: the bodies of the pages a response shows, and the Git
 * ids of their Markdown (what Git Sync would write), in one query for the lot.
 */
import type { JsonDocument } from '../../content/document.js';
import { documentToMarkdown } from '../../content/markdown.js';
import { flattenPages, getDocuments, type PageNode } from '../../content/store.js';
import type { DbOrTrx } from '../../core/service.js';
import { gitBlobOid } from '../../storage/files.js';

export interface PageBodies {
  /** Documents by hash. */
  documents: Map<string, JsonDocument>;
  /** Git blob ids of each document's Markdown, by hash; null when git metadata is left out. */
  oids: Map<string, string> | null;
}

/** Git ids of page Markdown, by document hash (documents never change, so neither do these). */
const markdownOids = new Map<string, string>();

/** The bodies of `pages` (and their subpages), with the Git ids of their Markdown when `metadata`. */
export async function loadPageBodies(db: DbOrTrx, pages: PageNode[], metadata: boolean): Promise<PageBodies> {
  const hashes = [...new Set(flattenPages(pages).flatMap((e) => (e.page.document ? [e.page.document] : [])))];
  const documents = await getDocuments(db, hashes);
  if (!metadata) return { documents, oids: null };
  for (const hash of hashes) {
    const document = documents.get(hash);
    if (markdownOids.has(hash) || !document) continue;
    if (markdownOids.size > 10_000) markdownOids.clear();
    markdownOids.set(hash, gitBlobOid(documentToMarkdown(document)));
  }
  return { documents, oids: markdownOids };
}
