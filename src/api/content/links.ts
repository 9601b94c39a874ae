/**
 * Links of a page and backlinks of a page or file, with broken-link checks against a revision: a
 * link to a page, file or anchor of this space is broken when its target is not in the revision,
 * and so is a relative URL (`missing.md`): it was not resolved to a page or file when the body was
 * written, and cannot be followed (links to absolute URLs and to other spaces are not checked).
 */
import { anchorsOf, type ContentRef } from '../../content/document.js';
import { type DocumentLink, refKey } from '../../content/links.js';
import { isRelativeUrl } from '../../content/relative-links.js';
import { type FlatPage, flattenPages, getDocumentLinks, getDocuments, type Snapshot } from '../../content/store.js';
import type { Db } from '../../db/database.js';

export interface CheckedLink extends DocumentLink {
  broken: boolean;
}

async function anchorsByPage(db: Db, snapshot: Snapshot, pageIds: string[]): Promise<Map<string, Set<string>>> {
  const pages = new Map(flattenPages(snapshot.pages).map((e) => [e.page.id, e.page]));
  const wanted = pageIds.filter((id) => pages.get(id)?.document);
  const documents = await getDocuments(
    db,
    wanted.map((id) => pages.get(id)?.document as string),
  );
  const out = new Map<string, Set<string>>();
  for (const id of pageIds) {
    const hash = pages.get(id)?.document;
    const document = hash ? documents.get(hash) : undefined;
    out.set(id, document ? anchorsOf(document) : new Set());
  }
  return out;
}

/** The links of `pageId` in `snapshot`, each marked broken or not. */
export async function checkedLinks(db: Db, snapshot: Snapshot, pageId: string): Promise<CheckedLink[]> {
  const flat = flattenPages(snapshot.pages);
  const page = flat.find((e) => e.page.id === pageId)?.page;
  if (!page?.document) return [];
  const links = (await getDocumentLinks(db, [page.document])).get(page.document) ?? [];
  const pageIds = new Set(flat.map((e) => e.page.id));
  const fileIds = new Set(snapshot.files.map((f) => f.id));
  const local = (ref: ContentRef) => !('space' in ref) || !ref.space || ref.space === snapshot.spaceId;
  const anchorPages = [
    ...new Set(
      links
        .filter((l) => l.ref.kind === 'anchor' && local(l.ref))
        .map((l) => (l.ref as { page?: string }).page ?? pageId),
    ),
  ].filter((id) => pageIds.has(id));
  const anchors = await anchorsByPage(db, snapshot, anchorPages);
  return links.map((link) => {
    const { ref } = link;
    let broken = false;
    if (local(ref)) {
      if (ref.kind === 'page') broken = !pageIds.has(ref.page);
      else if (ref.kind === 'file') broken = !fileIds.has(ref.file);
      else if (ref.kind === 'anchor') broken = !anchors.get(ref.page ?? pageId)?.has(ref.anchor);
      else if (ref.kind === 'url') broken = isRelativeUrl(ref.url);
    }
    return { ...link, broken };
  });
}

/** Link statistics of a page: broken in total, and broken by the change request (not broken at its start). */
export async function linkStats(db: Db, links: CheckedLink[], initial: Snapshot | null, pageId: string) {
  const broken = links.filter((l) => l.broken);
  let changeRequest = 0;
  if (initial && broken.length > 0) {
    const before = new Set((await checkedLinks(db, initial, pageId)).filter((l) => l.broken).map((l) => refKey(l.ref)));
    changeRequest = broken.filter((l) => !before.has(refKey(l.ref))).length;
  }
  return { total: links.length, broken: { total: broken.length, changeRequest } };
}

/** Pages of `snapshot` whose body links to the target (a page, or a file). */
export async function backlinks(
  db: Db,
  snapshot: Snapshot,
  target: { page: string } | { file: string },
): Promise<FlatPage[]> {
  const flat = flattenPages(snapshot.pages);
  const hashes = flat.map((e) => e.page.document).filter((h): h is string => h !== undefined);
  const links = await getDocumentLinks(db, hashes);
  const local = (ref: ContentRef) => !('space' in ref) || !ref.space || ref.space === snapshot.spaceId;
  const matches = (ref: ContentRef) => {
    if (!local(ref)) return false;
    if ('page' in target) return (ref.kind === 'page' || ref.kind === 'anchor') && ref.page === target.page;
    return ref.kind === 'file' && ref.file === target.file;
  };
  return flat.filter((entry) => {
    const hash = entry.page.document;
    return hash !== undefined && (links.get(hash) ?? []).some((l) => matches(l.ref));
  });
}
