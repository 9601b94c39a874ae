/**
 * Someone else saved the change request after this session last saw it (a 412): shows their version
 * of the open page, then "Reload" (take theirs: the editor shows it) or "Keep mine" (write mine on top
 * of their revision, and re-apply refused tree operations). Nothing is overwritten without this choice.
 */
import { useQuery } from '@tanstack/react-query';
import { request } from '../../api/client';
import type { ChangeRequest } from '../change-requests/types';
import { Modal } from '../controls/Modal';
import { DocumentView } from '../document/Document';
import type { PageDocument } from '../document/types';
import { Loading } from '../layout/Loading';
import { crPath } from './queries';
import { useEditSession } from './session';

interface Theirs {
  revision: string;
  page: PageDocument | null;
}

async function readTheirs(spaceId: string, number: string, pageId: string | undefined): Promise<Theirs> {
  const changeRequest = await request<ChangeRequest>(crPath(spaceId, number));
  const page = pageId
    ? await request<PageDocument>(`${crPath(spaceId, number)}/content/page/${encodeURIComponent(pageId)}`).catch(
        () => null,
      )
    : null;
  return { revision: changeRequest.revision, page };
}

export function ConflictDialog() {
  const session = useEditSession();
  const { conflict, spaceId, number } = session;
  const pageId = session.openPage.current?.pageId;
  const mine = session.openPage.current?.title();
  const theirs = useQuery({
    queryKey: ['editor-conflict', spaceId, number, pageId, conflict],
    queryFn: () => readTheirs(spaceId, number, pageId),
    enabled: conflict !== null,
    gcTime: 0,
  });

  const reload = (data: Theirs) => {
    session.queue.adopt(data.revision);
    session.openPage.current?.reload(data.page);
    session.refreshTree();
    session.resolve();
  };
  const keepMine = (data: Theirs) => {
    const retry = conflict?.retry ?? [];
    session.queue.adopt(data.revision);
    session.resolve();
    if (retry.length) void session.runTree(retry);
    session.openPage.current?.saveNow();
  };

  return (
    <Modal
      open={conflict !== null}
      onOpenChange={(next) => {
        if (!next) session.resolve();
      }}
      title="Someone else saved changes"
    >
      <p>
        This change request was saved elsewhere after you opened it. Your changes are not saved yet. Here is the page as
        it is now saved:
      </p>
      {theirs.error ? (
        <p role="alert" className="error">
          {theirs.error.message}
        </p>
      ) : !theirs.data ? (
        <Loading label="Loading their version" />
      ) : (
        <>
          <section className="conflict-theirs" aria-label="Their version">
            {theirs.data.page ? (
              <>
                <h3>{theirs.data.page.title}</h3>
                {mine !== undefined && mine.trim() !== theirs.data.page.title ? (
                  <p className="muted">
                    Their title: “{theirs.data.page.title}”; yours: “{mine}”.
                  </p>
                ) : null}
                {theirs.data.page.document ? (
                  <DocumentView document={theirs.data.page.document} context={{ spaceId, files: new Map() }} />
                ) : null}
              </>
            ) : (
              <p>This page is no longer in the change request.</p>
            )}
          </section>
          <div className="actions">
            <button type="button" onClick={() => reload(theirs.data)}>
              Reload
            </button>
            <button type="button" onClick={() => keepMine(theirs.data)}>
              Keep mine
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
