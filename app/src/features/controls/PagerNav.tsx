/** "Previous page", the page's number and "Next page" under a keyset-paged list (see api/pager.ts). */
import type { usePager } from '../../api/pager';

export function PagerNav({
  label,
  pager,
  next,
}: {
  /** The landmark's name, e.g. "Audit log pages". */
  label: string;
  pager: ReturnType<typeof usePager>;
  /** The cursor of the next page, from the list's `next.page`; none on the last page. */
  next: string | undefined;
}) {
  return (
    <nav aria-label={label} className="actions pager">
      <button type="button" onClick={pager.previous} disabled={pager.number === 1}>
        Previous page
      </button>
      <span>Page {pager.number}</span>
      <button type="button" onClick={() => next && pager.next(next)} disabled={!next}>
        Next page
      </button>
    </nav>
  );
}
