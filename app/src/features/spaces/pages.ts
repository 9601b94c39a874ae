/** Finding pages in a revision's tree: by id, by path, the first one a reader would open. */
import type { RevisionPage } from '../../api/types';

export function* walkPages(pages: RevisionPage[]): Generator<RevisionPage> {
  for (const page of pages) {
    yield page;
    yield* walkPages(page.pages ?? []);
  }
}

export function findPage(pages: RevisionPage[], match: { id?: string; path?: string }): RevisionPage | undefined {
  for (const page of walkPages(pages)) {
    if (match.id && page.id === match.id) return page;
    if (match.path !== undefined && page.type === 'document' && page.path === match.path) return page;
  }
  return undefined;
}

/** The first page with content (a group's first document page): what opening a space shows. */
export function firstDocument(pages: RevisionPage[]): RevisionPage | undefined {
  for (const page of walkPages(pages)) if (page.type === 'document') return page;
  return undefined;
}
