/**
 * Paging through a keyset-paged list (`next.page` cursors): the cursors of the pages seen so far, so
 * "Previous" goes back without the API knowing of previous pages.
 */
import { useState } from 'react';

/** The cursors that led to the current page; the first page has none. */
export type Trail = readonly string[];

export const forward = (trail: Trail, cursor: string): Trail => [...trail, cursor];
export const back = (trail: Trail): Trail => trail.slice(0, -1);
/** The cursor to ask for the current page with (undefined: the first page). */
export const current = (trail: Trail): string | undefined => trail.at(-1);

export function usePager() {
  const [trail, setTrail] = useState<Trail>([]);
  return {
    page: current(trail),
    /** 1 for the first page. */
    number: trail.length + 1,
    next: (cursor: string) => setTrail((t) => forward(t, cursor)),
    previous: () => setTrail(back),
    /** Back to the first page, for a new filter. */
    reset: () => setTrail([]),
  };
}
