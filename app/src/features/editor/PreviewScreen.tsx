/**
 * `/s/{space}/~/changes/{number}/preview[/{pageId}]`: the change request's content drawn as readers
 * will see it, with the app's read-only Document renderer. (Published sites preview site spaces,
 * not change requests, so there is no published address to open for one.)
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { filesById, PageArticle } from '../spaces/PageArticle';
import { PageList } from '../spaces/PageTree';
import { findPage, firstDocument } from '../spaces/pages';
import { crContentQuery, previewPageQuery } from './queries';

export default function PreviewScreen() {
  const { spaceId, number, pageId } = useParams({ strict: false }) as {
    spaceId: string;
    number: string;
    pageId?: string;
  };
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
          Preview of change request #{number} ·{' '}
          <Link
            to={page ? '/s/$spaceId/~/changes/$number/edit/$pageId' : '/s/$spaceId/~/changes/$number/edit'}
            params={{ spaceId, number, pageId: page?.id ?? '' }}
          >
            Back to editing
          </Link>
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
