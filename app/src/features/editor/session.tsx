/**
 * One editing session of a change request: its save queue (every write, with `If-Match`), the page
 * tree's operations, and the conflict the queue stops on, which ConflictDialog resolves. The open
 * page's editor registers itself so that a resolution can reload it or save it again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { PageDocument } from '../document/types';
import { crContentQuery } from './queries';
import { type BatchAnswer, type Change, ConflictError, SaveQueue, type SendBatch } from './save-queue';

/** What the open page's editor offers the session. */
export interface OpenPage {
  pageId: string;
  /** Replaces what is in the editor by `page` (their version), as saved. */
  reload: (page: PageDocument | null) => void;
  /** Saves what is in the editor now. */
  saveNow: () => void;
  /** The title as typed here (to compare with theirs). */
  title: () => string;
}

export interface Conflict {
  /** Tree operations that were refused, to re-apply on "Keep mine". */
  retry: Change[];
}

export interface EditSession {
  spaceId: string;
  number: string;
  organizationId: string;
  queue: SaveQueue;
  /** Runs tree operations; resolves undefined when they met a conflict (then shown) or failed (`onError`). */
  runTree: (changes: Change[], onError?: (message: string) => void) => Promise<BatchAnswer | undefined>;
  /** Shows the conflict dialog. */
  reportConflict: (conflict: Conflict) => void;
  conflict: Conflict | null;
  resolve: () => void;
  openPage: { current: OpenPage | null };
  /** The tree (and titles) changed: read it again. */
  refreshTree: () => void;
}

const Context = createContext<EditSession | null>(null);

export function useEditSession(): EditSession {
  const session = useContext(Context);
  if (!session) throw new Error('useEditSession outside EditSessionProvider');
  return session;
}

export function EditSessionProvider({
  spaceId,
  number,
  organizationId,
  revision,
  send,
  children,
}: {
  spaceId: string;
  number: string;
  organizationId: string;
  revision: string;
  send: SendBatch;
  children: ReactNode;
}) {
  const client = useQueryClient();
  const [queue] = useState(() => new SaveQueue(send, revision));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const openPage = useRef<OpenPage | null>(null);
  const refreshTree = useCallback(() => {
    void client.invalidateQueries({ queryKey: crContentQuery(spaceId, number).queryKey, exact: true });
  }, [client, spaceId, number]);
  const reportConflict = useCallback((next: Conflict) => {
    setConflict((current) => (current ? { retry: [...current.retry, ...next.retry] } : next));
  }, []);
  const runTree = useCallback(
    async (changes: Change[], onError?: (message: string) => void) => {
      try {
        const answer = await queue.run(changes);
        refreshTree();
        return answer;
      } catch (error) {
        if (error instanceof ConflictError) reportConflict({ retry: changes });
        else onError?.(error instanceof Error ? error.message : String(error));
        return undefined;
      }
    },
    [queue, refreshTree, reportConflict],
  );
  const value = useMemo<EditSession>(
    () => ({
      spaceId,
      number,
      organizationId,
      queue,
      runTree,
      reportConflict,
      conflict,
      resolve: () => setConflict(null),
      openPage,
      refreshTree,
    }),
    [spaceId, number, organizationId, queue, runTree, reportConflict, conflict, refreshTree],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}
