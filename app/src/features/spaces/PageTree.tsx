/** A space's pages as a tree of links (groups as headings of their pages), the open one marked. */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
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
      <PageList
        pages={pages}
        currentPageId={currentPageId}
        pageLink={(page, current, label) => (
          <Link to="/s/$spaceId/~/page/$pageId" params={{ spaceId, pageId: page.id }} aria-current={current}>
            {label}
          </Link>
        )}
      />
    </nav>
  );
}

/**
 * The tree itself: groups as headings, link pages as plain links, documents through `pageLink`
 * (the live space and a change request's preview link them to different addresses).
 */
export function PageList({
  pages,
  currentPageId,
  pageLink,
}: {
  pages: RevisionPage[];
  currentPageId?: string;
  pageLink: (page: RevisionPage, current: 'page' | undefined, label: ReactNode) => ReactNode;
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
            pageLink(
              page,
              page.id === currentPageId ? 'page' : undefined,
              <>
                {page.emoji ? <span aria-hidden="true">{page.emoji} </span> : null}
                {page.title}
              </>,
            )
          )}
          <PageList pages={page.pages ?? []} currentPageId={currentPageId} pageLink={pageLink} />
        </li>
      ))}
    </ul>
  );
}
