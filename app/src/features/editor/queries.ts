/**
 * What the editor reads and writes through the API: the person's own open change request of a space
 * (found or started), its content and pages, its batch edits (with `If-Match`), its reviewers.
 */
import { queryOptions } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Revision } from '../../api/types';
import type { ChangeRequest } from '../change-requests/types';
import type { PageDocument } from '../document/types';
import type { Site, SiteSpace } from '../sites/types';
import type { PlacedComment } from './comment-targets';
import type { BatchAnswer, Change, SendBatch } from './save-queue';

const spacePath = (spaceId: string) => `/v1/spaces/${encodeURIComponent(spaceId)}`;
export const crPath = (spaceId: string, number: string | number) =>
  `${spacePath(spaceId)}/change-requests/${encodeURIComponent(String(number))}`;

/**
 * The person's own open change request of the space (the most recently updated), or a new one: edits
 * never touch the live content.
 */
export async function openOwnChangeRequest(spaceId: string, userId: string): Promise<ChangeRequest> {
  const mine = await request<{ items: ChangeRequest[] }>(
    `${spacePath(spaceId)}/change-requests?status=open&creator=${encodeURIComponent(userId)}&orderBy=updatedAt&limit=1`,
  );
  const found = mine.items[0];
  if (found) return found;
  return request<ChangeRequest>(`${spacePath(spaceId)}/change-requests`, {
    method: 'POST',
    body: { subject: 'Edits' },
  });
}

/** Keys under the change request, so that one invalidation refreshes all the editor shows of it. */
const crKey = (spaceId: string, number: string) => ['spaces', spaceId, 'change-requests', 'one', number] as const;

export const crContentQuery = (spaceId: string, number: string) =>
  queryOptions({
    queryKey: [...crKey(spaceId, number), 'content'],
    queryFn: ({ signal }) => request<Revision>(`${crPath(spaceId, number)}/content`, { signal }),
  });

export const crPageQuery = (spaceId: string, number: string, pageId: string) =>
  queryOptions({
    queryKey: [...crKey(spaceId, number), 'content', 'page', pageId],
    queryFn: ({ signal }) =>
      request<PageDocument>(`${crPath(spaceId, number)}/content/page/${encodeURIComponent(pageId)}`, { signal }),
    // The editor owns the page while it is open: a refetch must not replace what is being typed;
    // and once it is closed the page is read again next time, never from an old copy: its editor
    // removes it from the cache as it closes (PageEditor). Not by a gcTime of 0: that dropped an
    // answer which arrived before any component had subscribed (React's commit can come later than
    // the fetch on a busy machine), and the page was then fetched a second time.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
  });

/** Removals waiting for the end of the task, by query key. */
const pendingRemovals = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * For an effect's cleanup: runs `remove` once the task ends, unless the same key is opened again
 * before (returned: the cleanup). Under StrictMode React closes and opens every effect once more at
 * once: the page's answer, removed then, was fetched again (three times after a reload).
 */
export function closing(queryKey: readonly unknown[], remove: () => void): () => void {
  const key = JSON.stringify(queryKey);
  clearTimeout(pendingRemovals.get(key));
  pendingRemovals.delete(key);
  return () => {
    pendingRemovals.set(
      key,
      setTimeout(() => {
        pendingRemovals.delete(key);
        remove();
      }, 0),
    );
  };
}

/** A page of the change request as the preview shows it: read fresh. */
export const previewPageQuery = (spaceId: string, number: string, pageId: string) =>
  queryOptions({
    queryKey: [...crKey(spaceId, number), 'preview', pageId],
    queryFn: ({ signal }) =>
      request<PageDocument>(`${crPath(spaceId, number)}/content/page/${encodeURIComponent(pageId)}`, { signal }),
    staleTime: 0,
  });

/** The change request's batch edit, conditional on the revision named by `ifMatch`. */
export function batchSender(spaceId: string, number: string): SendBatch {
  return async (changes: Change[], ifMatch: string): Promise<BatchAnswer> => {
    const answer = await request<{
      changeRequest: ChangeRequest;
      changes: BatchAnswer['changes'];
      insertedFiles: BatchAnswer['insertedFiles'];
    }>(`${crPath(spaceId, number)}/content?compat=false`, {
      method: 'POST',
      body: { changes },
      headers: { 'if-match': ifMatch },
    });
    return { revision: answer.changeRequest.revision, changes: answer.changes, insertedFiles: answer.insertedFiles };
  };
}

/** Asks `users` to review the change request (the official requested-reviewers operation). */
export function requestReviewers(spaceId: string, number: string, users: string[]): Promise<unknown> {
  return request(`${crPath(spaceId, number)}/requested-reviewers`, { method: 'POST', body: { users } });
}

/** The change request's comments on one page, their bodies as Markdown (the markers beside blocks). */
export const pageCommentsQuery = (spaceId: string, number: string, pageId: string) =>
  queryOptions({
    queryKey: [...crKey(spaceId, number), 'comments', 'page', pageId],
    queryFn: ({ signal }) =>
      requestAll<PlacedComment>(
        `${crPath(spaceId, number)}/comments?targetPage=${encodeURIComponent(pageId)}&format=markdown`,
        signal,
      ),
  });

/** Posts a comment on the page (and block) of the change request. */
export function postPageComment(
  spaceId: string,
  number: string,
  target: { page: string; node?: string; markdown: string },
): Promise<PlacedComment> {
  return request<PlacedComment>(`${crPath(spaceId, number)}/comments`, {
    method: 'POST',
    body: {
      body: { markdown: target.markdown },
      page: target.page,
      ...(target.node ? { node: target.node } : {}),
    },
  });
}

/**
 * Whether a site of the organization shows the space: then the preview is drawn by the published
 * site's renderer (`/sites/~changes/<id>`, src/published/change-preview.ts), which picks that site.
 * Someone who may not list the sites gets the app's own renderer instead.
 */
export const spaceOnSiteQuery = (organizationId: string, spaceId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'sites', 'showing', spaceId],
    queryFn: async ({ signal }) => {
      const sites = await requestAll<Site>(`/v1/orgs/${encodeURIComponent(organizationId)}/sites`, signal).catch(
        () => [] as Site[],
      );
      for (const site of sites.filter((s) => s.siteSpaces > 0)) {
        const siteSpaces = await requestAll<SiteSpace>(
          `/v1/orgs/${encodeURIComponent(organizationId)}/sites/${encodeURIComponent(site.id)}/site-spaces`,
          signal,
        );
        if (siteSpaces.some((s) => s.space.id === spaceId)) return true;
      }
      return false;
    },
    staleTime: 0,
  });
