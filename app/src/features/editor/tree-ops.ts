/**
 * Moves in the page tree as the batch edit's `update_page` operations. `at` counts the new parent's
 * pages with the moved page taken out (as the server applies it); groups live only at the top level
 * and link pages have no subpages, so moves that would break that are not offered (null).
 */
import type { RevisionPage } from '../../api/types';
import type { Change } from './save-queue';

interface Place {
  parent: RevisionPage | null;
  siblings: RevisionPage[];
  index: number;
}

export function locate(pages: RevisionPage[], id: string, parent: RevisionPage | null = null): Place | null {
  for (const [index, page] of pages.entries()) {
    if (page.id === id) return { parent, siblings: pages, index };
    const inner = locate(page.pages ?? [], id, page);
    if (inner) return inner;
  }
  return null;
}

const move = (page: RevisionPage, into: RevisionPage | null, at?: number): Change => ({
  operation: 'update_page',
  page: page.id,
  into: into ? into.id : null,
  ...(at === undefined ? {} : { at }),
});

export type MoveKind = 'up' | 'down' | 'indent' | 'outdent';

/** The operation moving page `id` one step (`up`, `down`, `indent` under the page above, `outdent`); null when it cannot. */
export function moveStep(pages: RevisionPage[], id: string, kind: MoveKind): Change | null {
  const place = locate(pages, id);
  if (!place) return null;
  const page = place.siblings[place.index] as RevisionPage;
  switch (kind) {
    case 'up':
      return place.index > 0 ? move(page, place.parent, place.index - 1) : null;
    case 'down':
      return place.index < place.siblings.length - 1 ? move(page, place.parent, place.index + 1) : null;
    case 'indent': {
      const above = place.siblings[place.index - 1];
      if (!above || above.type === 'link' || page.type === 'group') return null;
      return move(page, above);
    }
    case 'outdent': {
      if (!place.parent) return null;
      const up = locate(pages, place.parent.id) as Place;
      return move(page, up.parent, up.index + 1);
    }
  }
}

/** The operation putting page `id` just before page `targetId` (a drop); null when not allowed. */
export function moveBefore(pages: RevisionPage[], id: string, targetId: string): Change | null {
  if (id === targetId) return null;
  const from = locate(pages, id);
  const to = locate(pages, targetId);
  if (!from || !to) return null;
  const page = from.siblings[from.index] as RevisionPage;
  // Not into itself or its own subpages.
  if (locate(page.pages ?? [], targetId)) return null;
  if (page.type === 'group' && to.parent) return null;
  const sameList = from.siblings === to.siblings;
  const at = sameList && from.index < to.index ? to.index - 1 : to.index;
  return move(page, to.parent, at);
}

/** The tree without page `id` (a deletion waiting for its undo to expire). */
export function without(pages: RevisionPage[], id: string): RevisionPage[] {
  return pages
    .filter((page) => page.id !== id)
    .map((page) => (page.pages ? { ...page, pages: without(page.pages, id) } : page));
}
