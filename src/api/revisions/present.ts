/**
 * Response shaping of the revision history. Revisions, pages, files and reusable contents are shaped
 * by the content presenters (api/content/present.ts), seen from the revision's own app URL; what is
 * new here is Markdown with relative references and the semantic changes.
 */
import type { Static } from 'typebox';
import { emptyDocument, type JsonDocument } from '../../content/document.js';
import { documentToMarkdown } from '../../content/markdown.js';
import type { SemanticChange } from '../../content/semantic-changes.js';
import { type FlatPage, getDocuments, type Snapshot } from '../../content/store.js';
import type { Db } from '../../db/database.js';
import type { SpaceRow } from '../../db/schema.js';
import { gitPaths, relativeRefUrl } from '../../git/export-layout.js';
import type { RevisionGit } from '../../git/state.js';
import type { Urls } from '../../lib/urls.js';
import type { ChangeRequestObject } from '../change-requests/present.js';
import { type ContentView, type PresentedPage, presentFile, presentPage } from '../content/present.js';
import type { PageBodies } from '../content/repo.js';
import type { SemanticChanges } from './schemas.js';

/** The content view of a revision: its pages' app URLs are under the revision's own URL. */
export function revisionView(
  base: { urls: Urls },
  space: SpaceRow,
  snapshot: Snapshot,
  metadata: boolean,
  git: RevisionGit | undefined,
): ContentView {
  return {
    urls: base.urls,
    space,
    snapshot,
    appBase: `/s/${space.id}/~/revisions/${snapshot.id}`,
    metadata,
    ...(git ? { git } : {}),
  };
}

/**
 * A page of the revision. As Markdown, references are written as the official default says:
 * `relative` paths from the page's own Git Sync file (what an export of this revision would write),
 * or `stable` (`/pages/<id>`, `/files/<id>`), the form the content endpoints use.
 */
export function presentRevisionPage(
  view: ContentView,
  bodies: PageBodies,
  entry: FlatPage,
  format: 'document' | 'markdown',
  refs: 'relative' | 'stable',
): PresentedPage {
  if (format === 'document' || refs === 'stable' || entry.page.type !== 'document') {
    return presentPage(view, bodies, entry, format);
  }
  const { document, ...rest } = presentPage(view, bodies, entry, 'document');
  const paths = gitPaths(view.snapshot);
  const from = paths.pagePaths.get(entry.page.id) as string;
  const refUrl = relativeRefUrl(view.snapshot.spaceId, paths, from);
  return { ...rest, id: entry.page.id, markdown: documentToMarkdown(document as JsonDocument, { refUrl }) };
}

/** A stored body by its hash (an absent hash is an empty body). */
export async function loadDocument(db: Db, hash: string | undefined): Promise<JsonDocument> {
  if (!hash) return emptyDocument();
  const found = (await getDocuments(db, [hash])).get(hash);
  if (!found) throw new Error(`document ${hash} is missing`);
  return found;
}

type Changes = Static<typeof SemanticChanges>;
type PresentedChange = Changes['changes'][number];

/** One change in the official shape; a file is named with its download URL in its own revision. */
function presentChange(after: ContentView, before: ContentView | undefined, change: SemanticChange): PresentedChange {
  const fileOf = (view: ContentView | undefined, file: Snapshot['files'][number]) => {
    const { id, name, contentType, downloadURL } = presentFile(view ?? after, file);
    return { id, name, contentType, downloadURL };
  };
  switch (change.type) {
    case 'page_created':
    case 'page_deleted':
    case 'page_edited':
    case 'page_moved':
      return change;
    case 'file_created':
      return { type: change.type, file: fileOf(after, change.file) };
    case 'file_deleted':
      return { type: change.type, file: fileOf(before, change.file) };
    case 'file_edited': {
      const { blob, ...attributes } = change.attributes;
      const urls = blob
        ? {
            downloadURL: {
              before: fileOf(before, change.before).downloadURL,
              after: fileOf(after, change.file).downloadURL,
            },
          }
        : {};
      return { type: change.type, file: fileOf(after, change.file), attributes: { ...attributes, ...urls } };
    }
    default:
      return change;
  }
}

/** `{mergedFrom?, changes, more?}`: the first `limit` changes, and how many were left out. */
export function presentSemanticChanges(
  after: ContentView,
  before: ContentView | undefined,
  changes: SemanticChange[],
  limit: number,
  mergedFrom: ChangeRequestObject | undefined,
): Changes {
  const shown = changes.slice(0, limit).map((c) => presentChange(after, before, c));
  const more = changes.length - shown.length;
  return {
    ...(mergedFrom ? { mergedFrom } : {}),
    changes: shown,
    ...(more > 0 ? { more } : {}),
  };
}
