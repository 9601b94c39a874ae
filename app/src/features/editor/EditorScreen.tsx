/**
 * `/s/{space}/~/changes/{number}/edit[/{pageId}]`: writing in a change request. The page tree in
 * edit mode, the open page's editor, "Preview" and "Submit for review". Loaded lazily (its own
 * chunk, with TipTap): reading screens never download the editor.
 */
import { useQuery, useQueryClient, useSuspenseQueries } from '@tanstack/react-query';
import { Link, Navigate, useParams } from '@tanstack/react-router';
import { Suspense, useMemo, useState } from 'react';
import { changeRequestQuery } from '../change-requests/queries';
import type { ChangeRequest } from '../change-requests/types';
import { Loading } from '../layout/Loading';
import { firstDocument } from '../spaces/pages';
import { spaceQuery } from '../spaces/queries';
import { ConflictDialog } from './ConflictDialog';
import { EditPageTree } from './EditPageTree';
import { PageEditor } from './PageEditor';
import { batchSender, crContentQuery, crPageQuery } from './queries';
import { SubmitDialog } from './SubmitDialog';
import type { SendBatch } from './save-queue';
import { EditSessionProvider } from './session';
import './editor.css';

export default function EditorScreen() {
  const { spaceId, number, pageId } = useParams({ strict: false }) as {
    spaceId: string;
    number: string;
    pageId?: string;
  };
  const client = useQueryClient();
  // Everything the screen reads is asked for at once, the open page's body too (observed here so
  // that it is kept until its editor takes it): not one request after another.
  useQuery({ ...crPageQuery(spaceId, number, pageId ?? ''), enabled: Boolean(pageId) });
  const [{ data: space }, { data: changeRequest }, { data: content }] = useSuspenseQueries({
    queries: [spaceQuery(spaceId), changeRequestQuery(spaceId, number), crContentQuery(spaceId, number)],
  });
  const [submitting, setSubmitting] = useState(false);

  // Each save moves the change request: the cached one follows, so that the next visit starts
  // from the revision this session reached (not from an older one, which would be a false conflict).
  const send = useMemo<SendBatch>(() => {
    const post = batchSender(spaceId, number);
    return async (changes, ifMatch) => {
      const answer = await post(changes, ifMatch);
      client.setQueryData<ChangeRequest>(changeRequestQuery(spaceId, number).queryKey, (old) =>
        old ? { ...old, revision: answer.revision } : old,
      );
      return answer;
    };
  }, [client, spaceId, number]);

  if (changeRequest.status !== 'open' && changeRequest.status !== 'draft') {
    return (
      <main className="screen">
        <h1>This change request is {changeRequest.status}</h1>
        <p>
          Only open change requests can be edited.{' '}
          <Link to="/s/$spaceId" params={{ spaceId }}>
            Back to {space.title}
          </Link>
        </p>
      </main>
    );
  }
  if (!pageId) {
    const first = firstDocument(content.pages);
    if (first)
      return (
        <Navigate
          to="/s/$spaceId/~/changes/$number/edit/$pageId"
          params={{ spaceId, number, pageId: first.id }}
          replace
        />
      );
  }

  return (
    <EditSessionProvider
      // A new session (and queue) per change request; the revision it starts from is the one read now.
      key={`${spaceId}/${number}`}
      spaceId={spaceId}
      number={number}
      organizationId={space.organization}
      revision={changeRequest.revision}
      send={send}
    >
      <div className="layout editor-layout">
        <EditPageTree pages={content.pages} currentPageId={pageId} />
        <main className="screen page">
          <div className="editor-toolbar">
            <p className="space-title">
              <Link to="/s/$spaceId" params={{ spaceId }}>
                {space.title}
              </Link>{' '}
              ·{' '}
              <Link to="/s/$spaceId/~/changes/$number" params={{ spaceId, number }}>
                {changeRequest.subject || `Change request #${changeRequest.number}`}
              </Link>
            </p>
            <div className="actions">
              <Link
                className="button"
                to={pageId ? '/s/$spaceId/~/changes/$number/preview/$pageId' : '/s/$spaceId/~/changes/$number/preview'}
                params={{ spaceId, number, pageId: pageId ?? '' }}
              >
                Preview
              </Link>
              <button type="button" onClick={() => setSubmitting(true)}>
                Submit for review
              </button>
            </div>
          </div>
          {pageId ? (
            <Suspense fallback={<Loading label="Loading the page" />}>
              <PageEditor key={pageId} pageId={pageId} />
            </Suspense>
          ) : (
            <>
              <h1>No pages yet</h1>
              <p>Start with "New page".</p>
            </>
          )}
        </main>
      </div>
      <ConflictDialog />
      {submitting ? <SubmitDialog onClose={() => setSubmitting(false)} /> : null}
    </EditSessionProvider>
  );
}
