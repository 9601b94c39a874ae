/**
 * `/s/{space}/~/changes/{number}/preview[/{pageId}]`: the change request's content as readers will
 * see it. When a site shows the space, the published site's own renderer draws it, in a frame: the
 * server's change request preview (src/published/change-preview.ts), on that site, for the person's
 * session only. A space on no site has no published look yet: the app's read-only Document renderer
 * draws it then, and says so.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { basePath } from '../../base';
import { changeRequestQuery } from '../change-requests/queries';
import { filesById, PageArticle } from '../spaces/PageArticle';
import { PageList } from '../spaces/PageTree';
import { findPage, firstDocument } from '../spaces/pages';
import { spaceQuery } from '../spaces/queries';
import { crContentQuery, previewPageQuery, spaceOnSiteQuery } from './queries';
import './editor.css';

export default function PreviewScreen() {
  const { spaceId, number, pageId } = useParams({ strict: false }) as {
    spaceId: string;
    number: string;
    pageId?: string;
  };
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId));
  const { data: onSite } = useSuspenseQuery(spaceOnSiteQuery(space.organization, spaceId));
  const { data: changeRequest } = useSuspenseQuery(changeRequestQuery(spaceId, number));
  const back = (
    <Link
      to={pageId ? '/s/$spaceId/~/changes/$number/edit/$pageId' : '/s/$spaceId/~/changes/$number/edit'}
      params={{ spaceId, number, pageId: pageId ?? '' }}
    >
      Back to editing
    </Link>
  );
  if (!onSite) return <AppPreview spaceId={spaceId} number={number} pageId={pageId} back={back} />;
  const page = pageId ? `?${new URLSearchParams({ page: pageId })}` : '';
  const src = `${basePath}/sites/~changes/${encodeURIComponent(changeRequest.id)}${page}`;
  return (
    <main className="site-preview">
      <p className="space-title">
        Preview of change request #{number} as its published site shows it · {back} ·{' '}
        <a href={src} target="_blank" rel="noopener">
          Open in a new tab
        </a>
      </p>
      <iframe className="site-preview-frame" title={`Published preview of change request #${number}`} src={src} />
    </main>
  );
}

/** The change request drawn by the app's own Document renderer (a space on no site). */
function AppPreview({
  spaceId,
  number,
  pageId,
  back,
}: {
  spaceId: string;
  number: string;
  pageId?: string;
  back: ReactNode;
}) {
  const { data: content } = useSuspenseQuery({ ...crContentQuery(spaceId, number), staleTime: 0 });
  const page = pageId ? findPage(content.pages, { id: pageId }) : firstDocument(content.pages);
  const files = filesById(content);
  return (
    <div className="layout">
      <nav className="page-tree" aria-label="Pages of the preview">
        <PageList
          pages={content.pages}
          currentPageId={page?.id}
          pageLink={(linked, current, label) => (
            <Link
              to="/s/$spaceId/~/changes/$number/preview/$pageId"
              params={{ spaceId, number, pageId: linked.id }}
              aria-current={current}
            >
              {label}
            </Link>
          )}
        />
      </nav>
      <main className="screen page">
        <p className="space-title">
          Preview of change request #{number} (no site shows this space yet: drawn by the app) · {back}
        </p>
        {page ? (
          <PageArticle spaceId={spaceId} page={page} files={files} query={previewPageQuery(spaceId, number, page.id)} />
        ) : (
          <h1>No page to preview</h1>
        )}
      </main>
    </div>
  );
}
