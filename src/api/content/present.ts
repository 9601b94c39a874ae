/**
 * Response shaping of revisions, pages and files, for the live content and change requests alike.
 * Git metadata (`git {oid, path}`) is what Git Sync would write: the page's Markdown at
 * `<path>.md` (`<path>/README.md` when it has subpages), files under `.gitbook/assets/`; it is left
 * out when the caller passes `metadata=false`.
 */

import { emptyDocument, type JsonDocument } from '../../content/document.js';
import { documentToMarkdown } from '../../content/markdown.js';
import { type FileEntry, type FlatPage, flattenPages, type PageNode, type Snapshot } from '../../content/store.js';
import { refToUrl } from '../../content/to-mdast.js';
import type { SpaceRow } from '../../db/schema.js';
import type { RevisionGit } from '../../git/state.js';
import type { Urls } from '../../lib/urls.js';
import { gitBlobOid } from '../../storage/files.js';
import type { ChangeRequestObject } from '../change-requests/present.js';
import type { PageBodies } from './repo.js';

export interface ContentView {
  urls: Urls;
  space: SpaceRow;
  snapshot: Snapshot;
  /** App path of this content: `/s/<space>` live, `/s/<space>/~/changes/<number>` for a change request. */
  appBase: string;
  metadata: boolean;
  /** What Git Sync recorded for this revision (the commit, each page's and file's blob), if anything. */
  git?: RevisionGit;
}

export const DEFAULT_LAYOUT = {
  width: 'default' as const,
  cover: true,
  coverSize: 'hero' as const,
  coverMask: 'none' as const,
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

const EMPTY_OID = gitBlobOid('');

export type PresentedPage = Record<string, unknown> & { id: string };

/**
 * One page as the API shows it, `document` included for document pages when given. Built by
 * assignment, not by spreading optional parts into literals: a list of 100 pages spent ~20 % of its
 * CPU copying those spreads (the serializer writes the schema's order, so the key order is free).
 */
function pageObject(
  view: ContentView,
  entry: FlatPage,
  oids: Map<string, string> | null,
  children: PresentedPage[],
  document?: JsonDocument,
): PresentedPage {
  const { page, path } = entry;
  const out: PresentedPage = { id: page.id, title: page.title };
  if (page.emoji) out.emoji = page.emoji;
  if (page.icon) out.icon = page.icon;
  if (page.condition) out.condition = page.condition;
  if (page.type === 'link') {
    out.kind = 'link';
    out.type = 'link';
    out.target = page.target;
    const href = page.target ? refToUrl(page.target) : undefined;
    if (href) out.href = href;
    if (page.hidden) out.hidden = true;
    return out;
  }
  if (page.type === 'group') {
    out.kind = 'group';
    out.type = 'group';
    out.slug = page.slug;
    out.path = path;
    if (page.hidden) out.hidden = true;
    out.pages = children;
    return out;
  }
  out.kind = 'sheet';
  out.type = 'document';
  if (page.description) out.description = page.description;
  out.urls = { app: view.urls.app(`${view.appBase}/${path}`) };
  out.slug = page.slug;
  out.path = path;
  if (page.hidden) out.hidden = true;
  out.layout = DEFAULT_LAYOUT;
  out.tags = [];
  if (oids) {
    out.git = view.git?.pages[page.id] ?? {
      oid: (page.document && oids.get(page.document)) || EMPTY_OID,
      path: page.children.length > 0 ? `${path}/README.md` : `${path}.md`,
    };
  }
  if (page.document) out.documentId = page.document;
  out.pages = children;
  if (document) out.document = document;
  return out;
}

/**
 * Pages of the view, nested, each document page with its body as the structured document (the
 * official `RevisionPageDocument` carries one of `document` or `markdown`). `bodies` holds the
 * documents of `pages` (`loadPageBodies`).
 */
export function presentPages(
  view: ContentView,
  bodies: PageBodies,
  pages: PageNode[] = view.snapshot.pages,
): PresentedPage[] {
  const { documents, oids } = bodies;
  const flat = new Map(flattenPages(view.snapshot.pages).map((entry) => [entry.page.id, entry]));
  const build = (list: PageNode[]): PresentedPage[] =>
    list.map((page) => {
      const document =
        page.type === 'document' ? (page.document && documents.get(page.document)) || emptyDocument() : undefined;
      return pageObject(view, flat.get(page.id) as FlatPage, oids, build(page.children), document);
    });
  return build(pages);
}

/** One page with its body, as the document or as Markdown. */
export function presentPage(
  view: ContentView,
  bodies: PageBodies,
  entry: FlatPage,
  format: 'document' | 'markdown',
): PresentedPage {
  const [presented] = presentPages(view, bodies, [entry.page]);
  const page = presented as PresentedPage;
  if (entry.page.type !== 'document' || format === 'document') return page;
  const { document, ...rest } = page;
  return { ...rest, id: page.id, markdown: documentToMarkdown(document as JsonDocument) };
}

export function downloadPath(spaceId: string, revisionId: string, fileId: string): string {
  return `/spaces/${spaceId}/revisions/${revisionId}/files/${fileId}/download`;
}

export function presentFile(
  view: Pick<ContentView, 'urls' | 'space' | 'snapshot' | 'metadata' | 'git'>,
  file: FileEntry,
) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: view.urls.api(downloadPath(view.space.id, view.snapshot.id, file.id)),
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    ...(view.metadata
      ? { git: view.git?.files[file.id] ?? { oid: file.oid, path: `.gitbook/assets/${file.name}` } }
      : {}),
  };
}

export function presentReusableContent(
  view: Pick<ContentView, 'metadata'>,
  entry: Snapshot['reusableContents'][number],
) {
  return {
    id: entry.id,
    title: entry.title,
    ...(entry.document ? { document: entry.document } : {}),
    ...(view.metadata ? { git: { oid: entry.document ?? EMPTY_OID, path: `.gitbook/includes/${entry.id}.md` } } : {}),
  };
}

/** The revision object (`mergedFrom` is the change request a merge revision came from). */
export function presentRevision(view: ContentView, bodies: PageBodies, mergedFrom?: ChangeRequestObject) {
  const { snapshot, space, urls } = view;
  const published = space.visibility !== 'private' ? urls.app(`/s/${space.id}/published`) : undefined;
  return {
    object: 'revision' as const,
    id: snapshot.id,
    type: snapshot.type,
    parents: snapshot.parents,
    pages: presentPages(view, bodies),
    files: snapshot.files.map((f) => presentFile(view, f)),
    reusableContents: snapshot.reusableContents.map((r) => presentReusableContent(view, r)),
    tags: [],
    createdAt: snapshot.createdAt,
    urls: {
      app: urls.app(`/s/${space.id}/~/revisions/${snapshot.id}`),
      ...(published ? { published } : {}),
      ...(space.visibility === 'public' && published ? { public: published } : {}),
    },
    ...(mergedFrom ? { mergedFrom } : {}),
    ...(view.metadata && view.git ? { git: view.git.commit } : {}),
  };
}
