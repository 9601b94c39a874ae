/**
 * A space: the organization's navigation, the space's page tree and the open page, drawn with
 * every block. Answers `/s/{space}`, `/s/{space}/~/page/{pageId}` and `/s/{space}/{page path}`.
 */
import { useQueryClient, useSuspenseQueries } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Suspense } from 'react';
import { CommentedDocument } from '../comments/CommentedDocument';
import { EditButton } from '../editor/EditButton';
import { Loading } from '../layout/Loading';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { SearchBox } from '../search/SearchBox';
import { ShareButton } from '../sharing/ShareDialog';
import { filesById, PageArticle } from './PageArticle';
import { PageTree } from './PageTree';
import { findPage, firstDocument } from './pages';
import { pageQuery, spaceContentQuery, spaceQuery } from './queries';

export function SpaceScreen() {
  const params = useParams({ strict: false }) as { spaceId: string; pageId?: string; _splat?: string };
  // Both at once: one after the other, the page tree waited a round trip more.
  const [{ data: space }, { data: revision }] = useSuspenseQueries({
    queries: [spaceQuery(params.spaceId), spaceContentQuery(params.spaceId)],
  });
  const page =
    params.pageId || params._splat
      ? findPage(revision.pages, { id: params.pageId, path: params._splat?.replace(/\/$/, '') })
      : firstDocument(revision.pages);
  // The page's body is asked for now, not once the page tree's first render has committed (its
  // useQuery would start only then): a 200-page tree takes a while to draw. Fresh data is not refetched.
  const client = useQueryClient();
  if (page) void client.prefetchQuery(pageQuery(space.id, page.id));
  const files = filesById(revision);
  return (
    <div className="layout">
      <Suspense fallback={<Loading label="Loading the organization" />}>
        <OrganizationNav organizationId={space.organization} currentSpaceId={space.id} />
      </Suspense>
      <PageTree spaceId={space.id} title={space.title} pages={revision.pages} currentPageId={page?.id} />
      <main className="screen page">
        <div className="space-bar">
          <p className="space-title">
            {space.title} ·{' '}
            <Link to="/s/$spaceId/~/changes" params={{ spaceId: space.id }}>
              Change requests
            </Link>
          </p>
          <div className="space-actions">
            <ShareButton
              target={{
                kind: 'space',
                id: space.id,
                title: space.title,
                organizationId: space.organization,
                admin: space.permissions.admin,
              }}
            />
            {space.permissions.edit ? <EditButton spaceId={space.id} pageId={page?.id} /> : null}
          </div>
        </div>
        <SearchBox spaceId={space.id} label={`Search in ${space.title}`} />
        {page ? (
          <PageArticle
            spaceId={space.id}
            page={page}
            files={files}
            query={pageQuery(space.id, page.id)}
            renderDocument={(document) => (
              <CommentedDocument
                document={document}
                documentContext={{ spaceId: space.id, files }}
                pageId={page.id}
                organizationId={space.organization}
                canComment={space.permissions.comment === true}
              />
            )}
          />
        ) : (
          <>
            <h1>{params.pageId || params._splat ? 'Page not found' : 'This space has no pages yet'}</h1>
            <p>{params.pageId || params._splat ? 'No page of this space is at this address.' : null}</p>
          </>
        )}
      </main>
    </div>
  );
}
