/**
 * A page drawn as readers see it: its title (from the tree at once, the body's when it arrives), its
 * description and its document. Both the live space and a change request's preview draw pages so;
 * they differ in where the body comes from (`query`) and how its document is drawn
 * (`renderDocument`: the live page adds its comment threads).
 */
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { RevisionPage } from '../../api/types';
import { DocumentView, type RevisionFile } from '../document/Document';
import type { JSONDocument, PageDocument } from '../document/types';
import { Loading } from '../layout/Loading';

/** A revision's files by id, for the document's images and file blocks. */
export function filesById(revision: object): ReadonlyMap<string, RevisionFile> {
  const files = (revision as { files?: RevisionFile[] }).files ?? [];
  return new Map(files.map((file) => [file.id, file] as const));
}

export function PageArticle<Key extends QueryKey>({
  spaceId,
  page,
  files,
  query,
  renderDocument,
}: {
  spaceId: string;
  page: RevisionPage;
  files: ReadonlyMap<string, RevisionFile>;
  query: UseQueryOptions<PageDocument, Error, PageDocument, Key>;
  renderDocument?: (document: JSONDocument) => ReactNode;
}) {
  const { data, error, isPending } = useQuery(query);
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
        (renderDocument?.(data.document) ?? <DocumentView document={data.document} context={{ spaceId, files }} />)
      ) : null}
    </article>
  );
}
