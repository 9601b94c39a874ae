/**
 * `/s/{space}/~/changes/{number}/preview[/{pageId}]`: the change request's content drawn as readers
 * will see it, with the app's read-only Document renderer. (Published sites preview site spaces,
 * not change requests, so there is no published address to open for one.)
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { RevisionPage } from '../../api/types';
import { DocumentView, type RevisionFile } from '../document/Document';
import { Loading } from '../layout/Loading';
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
  const files = new Map(((content as { files?: RevisionFile[] }).files ?? []).map((f) => [f.id, f] as const));
  return (
    <div className="layout">
      <nav className="page-tree" aria-label="Pages of the preview">
        <PreviewTree spaceId={spaceId} number={number} pages={content.pages} currentPageId={page?.id} />
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
          <PreviewPage spaceId={spaceId} number={number} page={page} files={files} />
        ) : (
          <h1>No page to preview</h1>
        )}
      </main>
    </div>
  );
}

function PreviewPage({
  spaceId,
  number,
  page,
  files,
}: {
  spaceId: string;
  number: string;
  page: RevisionPage;
  files: ReadonlyMap<string, RevisionFile>;
}) {
  const { data, error, isPending } = useQuery(previewPageQuery(spaceId, number, page.id));
  return (
    <article>
      <h1>
        {page.emoji ? <span aria-hidden="true">{page.emoji} </span> : null}
        {data?.title ?? page.title}
      </h1>
      {data?.description ? <p className="description">{data.description}</p> : null}
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : isPending ? (
        <Loading label="Loading the page" />
      ) : data?.document ? (
        <DocumentView document={data.document} context={{ spaceId, files }} />
      ) : null}
    </article>
  );
}

function PreviewTree({
  spaceId,
  number,
  pages,
  currentPageId,
}: {
  spaceId: string;
  number: string;
  pages: RevisionPage[];
  currentPageId?: string;
}) {
  if (pages.length === 0) return null;
  return (
    <ul className="tree">
      {pages.map((page) => (
        <li key={page.id}>
          {page.type === 'document' ? (
            <Link
              to="/s/$spaceId/~/changes/$number/preview/$pageId"
              params={{ spaceId, number, pageId: page.id }}
              aria-current={page.id === currentPageId ? 'page' : undefined}
            >
              {page.title}
            </Link>
          ) : (
            <span className="group-title">{page.title}</span>
          )}
          <PreviewTree spaceId={spaceId} number={number} pages={page.pages ?? []} currentPageId={currentPageId} />
        </li>
      ))}
    </ul>
  );
}
