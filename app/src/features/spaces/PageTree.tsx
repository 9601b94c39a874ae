/** A space's pages as a tree of links (groups as headings of their pages), the open one marked. */
import { Link } from '@tanstack/react-router';
import type { RevisionPage } from '../../api/types';

export function PageTree({
  spaceId,
  title,
  pages,
  currentPageId,
}: {
  spaceId: string;
  title: string;
  pages: RevisionPage[];
  currentPageId?: string;
}) {
  return (
    <nav className="page-tree" aria-label={`Pages of ${title}`}>
      <PageList spaceId={spaceId} pages={pages} currentPageId={currentPageId} />
    </nav>
  );
}

function PageList({
  spaceId,
  pages,
  currentPageId,
}: {
  spaceId: string;
  pages: RevisionPage[];
  currentPageId?: string;
}) {
  if (pages.length === 0) return null;
  return (
    <ul className="tree">
      {pages.map((page) => (
        <li key={page.id}>
          {page.type === 'group' ? (
            <span className="group-title">{page.title}</span>
          ) : page.type === 'link' ? (
            <a href={page.href}>{page.title}</a>
          ) : (
            <Link
              to="/s/$spaceId/~/page/$pageId"
              params={{ spaceId, pageId: page.id }}
              aria-current={page.id === currentPageId ? 'page' : undefined}
            >
              {page.emoji ? <span aria-hidden="true">{page.emoji} </span> : null}
              {page.title}
            </Link>
          )}
          <PageList spaceId={spaceId} pages={page.pages ?? []} currentPageId={currentPageId} />
        </li>
      ))}
    </ul>
  );
}
