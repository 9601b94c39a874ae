/**
 * A space: the organization's navigation, the space's page tree and the open page, drawn with
 * every block. Answers `/s/{space}`, `/s/{space}/~/page/{pageId}` and `/s/{space}/{page path}`.
 */
import { useQuery, useQueryClient, useSuspenseQueries } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Suspense } from 'react';
import type { RevisionPage } from '../../api/types';
import { CommentedDocument } from '../comments/CommentedDocument';
import type { RevisionFile } from '../document/Document';
import { EditButton } from '../editor/EditButton';
import { Loading } from '../layout/Loading';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { SearchBox } from '../search/SearchBox';
import { ShareButton } from '../sharing/ShareDialog';
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
  const files = new Map(((revision as { files?: RevisionFile[] }).files ?? []).map((file) => [file.id, file] as const));
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
          <PageContent
            spaceId={space.id}
            organizationId={space.organization}
            canComment={space.permissions.comment === true}
            page={page}
            files={files}
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

function PageContent({
  spaceId,
  organizationId,
  canComment,
  page,
  files,
}: {
  spaceId: string;
  organizationId: string;
  canComment: boolean;
  page: RevisionPage;
  files: ReadonlyMap<string, RevisionFile>;
}) {
  // The tree's title shows at once; the body follows when it arrives.
  const { data, error, isPending } = useQuery(pageQuery(spaceId, page.id));
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
        <CommentedDocument
          document={data.document}
          documentContext={{ spaceId, files }}
          pageId={page.id}
          organizationId={organizationId}
          canComment={canComment}
        />
      ) : null}
    </article>
  );
}
