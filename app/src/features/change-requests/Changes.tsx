/**
 * What a change request changes: every changed page with its blocks marked (added, removed,
 * changed) against the change request's base, and the files and reusable contents it changes.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { PageThreads } from '../comments/PageThreads';
import type { ThreadContext } from '../comments/Threads';
import { Block } from '../document/blocks';
import { DocumentView } from '../document/Document';
import type { DocumentNode } from '../document/types';
import { Loading } from '../layout/Loading';
import { diffBlocks } from './diff';
import { changesQuery, revisionFilesQuery, revisionPageQuery } from './queries';
import type { ChangeRequest, SemanticChange } from './types';

export function Changes({
  spaceId,
  changeRequest,
  organizationId,
}: {
  spaceId: string;
  changeRequest: ChangeRequest;
  organizationId: string;
}) {
  const { data } = useSuspenseQuery(changesQuery(spaceId, String(changeRequest.number)));
  const threads: ThreadContext = { scope: { spaceId, changeRequest: String(changeRequest.number) }, organizationId };
  if (data.changes.length === 0) return <p>This change request changes nothing yet.</p>;
  return (
    <div className="changes">
      {data.changes.map((change, index) => (
        <ChangeView
          key={changeKey(change, index)}
          spaceId={spaceId}
          changeRequest={changeRequest}
          change={change}
          threads={threads}
        />
      ))}
      {data.more ? <p className="muted">And {data.more} more changes.</p> : null}
    </div>
  );
}

function changeKey(change: SemanticChange, index: number): string {
  const target =
    (change as { page?: { id: string }; file?: { id: string } }).page ?? (change as { file?: { id: string } }).file;
  return `${change.type}:${target?.id ?? index}`;
}

const LABELS: Record<string, string> = {
  page_created: 'Page added',
  page_edited: 'Page edited',
  page_deleted: 'Page removed',
  page_moved: 'Page moved',
  file_created: 'File added',
  file_edited: 'File changed',
  file_deleted: 'File removed',
  reusable_content_created: 'Reusable content added',
  reusable_content_edited: 'Reusable content edited',
  reusable_content_deleted: 'Reusable content removed',
};

function ChangeView({
  spaceId,
  changeRequest,
  change,
  threads,
}: {
  spaceId: string;
  changeRequest: ChangeRequest;
  change: SemanticChange;
  threads: ThreadContext;
}) {
  const label = LABELS[change.type] ?? change.type;
  const page = (change as { page?: { id: string; title: string; path?: string } }).page;
  const file = (change as { file?: { name: string } }).file;
  const reusable = (change as { reusableContent?: { title: string } }).reusableContent;
  const title = page?.title ?? file?.name ?? reusable?.title ?? '';
  return (
    <section className={`change change-${change.type}`} aria-label={`${label}: ${title}`}>
      <h3>
        <span className="change-label">{label}</span> {title}
      </h3>
      {page && change.type !== 'page_moved' ? (
        <PageDiff spaceId={spaceId} changeRequest={changeRequest} pageId={page.id} type={change.type} />
      ) : null}
      {page ? (
        <PageThreads
          context={threads}
          pageId={page.id}
          pageTitle={page.title}
          canPost={change.type !== 'page_deleted'}
        />
      ) : null}
    </section>
  );
}

function PageDiff({
  spaceId,
  changeRequest,
  pageId,
  type,
}: {
  spaceId: string;
  changeRequest: ChangeRequest;
  pageId: string;
  type: string;
}) {
  const before = useQuery({
    ...revisionPageQuery(spaceId, changeRequest.revisionInitial, pageId),
    enabled: type !== 'page_created',
  });
  const after = useQuery({
    ...revisionPageQuery(spaceId, changeRequest.revision, pageId),
    enabled: type !== 'page_deleted',
  });
  // The files of both sides: a removed image names a file of the base, an added one of the change request.
  const beforeFiles = useQuery({
    ...revisionFilesQuery(spaceId, changeRequest.revisionInitial),
    enabled: type !== 'page_created',
  });
  const afterFiles = useQuery({
    ...revisionFilesQuery(spaceId, changeRequest.revision),
    enabled: type !== 'page_deleted',
  });
  const files = new Map([...(beforeFiles.data ?? []), ...(afterFiles.data ?? [])]);
  if (before.error || after.error) {
    return (
      <p role="alert" className="error">
        {(before.error ?? after.error)?.message}
      </p>
    );
  }
  if ((type !== 'page_created' && before.isPending) || (type !== 'page_deleted' && after.isPending)) {
    return <Loading label="Loading the page" />;
  }
  const beforeNodes: DocumentNode[] = before.data?.document?.nodes ?? [];
  const afterNodes: DocumentNode[] = after.data?.document?.nodes ?? [];
  const diff = diffBlocks(type === 'page_created' ? [] : beforeNodes, type === 'page_deleted' ? [] : afterNodes);
  return (
    <DocumentView document={{ object: 'document', nodes: [] }} context={{ spaceId, files }}>
      {diff.map((entry, index) =>
        entry.kind === 'same' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff is drawn once, in its order
          <div key={index} className="diff-same">
            <Block node={entry.node} />
          </div>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff is drawn once, in its order
          <div key={index} className={`diff-${entry.kind}`}>
            <span className="diff-label">
              {entry.kind === 'added' ? 'Added' : entry.kind === 'removed' ? 'Removed' : 'Changed'}
            </span>
            {entry.kind === 'changed' ? (
              <>
                <del className="diff-before">
                  <Block node={entry.before} />
                </del>
                <ins>
                  <Block node={entry.node} />
                </ins>
              </>
            ) : entry.kind === 'added' ? (
              <ins>
                <Block node={entry.node} />
              </ins>
            ) : (
              <del>
                <Block node={entry.node} />
              </del>
            )}
          </div>
        ),
      )}
    </DocumentView>
  );
}
