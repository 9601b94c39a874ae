import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { PageDocument } from '../document/types';
import { filesById } from '../spaces/PageArticle';
import type { ChangeRequest, RequestedReviewer, Review, SemanticChanges } from './types';

const crPath = (spaceId: string, key: string | number) =>
  `/v1/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(String(key))}`;

export const changeRequestsQuery = (spaceId: string, status: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', status],
    queryFn: ({ signal }) =>
      requestAll<ChangeRequest>(
        `/v1/spaces/${encodeURIComponent(spaceId)}/change-requests?status=${encodeURIComponent(status)}`,
        signal,
      ),
  });

export const changeRequestQuery = (spaceId: string, key: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', 'one', key],
    queryFn: ({ signal }) => request<ChangeRequest>(crPath(spaceId, key), { signal }),
  });

export const changesQuery = (spaceId: string, key: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', 'one', key, 'changes'],
    queryFn: ({ signal }) => request<SemanticChanges>(`${crPath(spaceId, key)}/changes?limit=100`, { signal }),
  });

/** A page as it is in a revision (the change request's base) or in the change request. */
export const revisionPageQuery = (spaceId: string, revisionId: string, pageId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'revisions', revisionId, 'page', pageId],
    queryFn: ({ signal }) =>
      request<PageDocument>(
        `/v1/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}/page/${encodeURIComponent(pageId)}`,
        { signal },
      ),
    staleTime: Number.POSITIVE_INFINITY, // a revision never changes
  });

/** A revision's files by id (its pages' images and file blocks), for a diff drawn from two revisions. */
export const revisionFilesQuery = (spaceId: string, revisionId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'revisions', revisionId, 'files'],
    queryFn: async ({ signal }) =>
      filesById(
        await request<object>(`/v1/spaces/${encodeURIComponent(spaceId)}/revisions/${encodeURIComponent(revisionId)}`, {
          signal,
        }),
      ),
    staleTime: Number.POSITIVE_INFINITY, // a revision never changes
  });

export const reviewsQuery = (spaceId: string, key: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', 'one', key, 'reviews'],
    queryFn: ({ signal }) => requestAll<Review>(`${crPath(spaceId, key)}/reviews`, signal),
  });

/** A comment's body as the API takes it: the official Document, here as Markdown (plain text is Markdown). */
function markdownBody(text: string): { markdown: string } {
  return { markdown: text };
}

/** Every action on a change request refreshes what it shows of it. */
function useChangeRequestAction<T, R>(spaceId: string, action: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: () => client.invalidateQueries({ queryKey: ['spaces', spaceId] }),
  });
}

export function useSubmitReview(spaceId: string, key: string) {
  return useChangeRequestAction(spaceId, (input: { status: Review['status']; comment?: string }) =>
    request(`${crPath(spaceId, key)}/reviews`, {
      method: 'POST',
      body: { status: input.status, ...(input.comment ? { comment: markdownBody(input.comment) } : {}) },
    }),
  );
}

export function useMerge(spaceId: string, key: string) {
  return useChangeRequestAction(spaceId, () =>
    request<{ result: 'merge' | 'conflicts'; revision: string }>(`${crPath(spaceId, key)}/merge`, { method: 'POST' }),
  );
}

export function useUpdateFromLive(spaceId: string, key: string) {
  return useChangeRequestAction(spaceId, () => request(`${crPath(spaceId, key)}/update`, { method: 'POST' }));
}

/** The organization's change requests (listChangeRequestsForOrganization): a status, or those awaiting `requestedReviewer`. */
export const organizationChangeRequestsQuery = (
  organizationId: string,
  filter: { status: string; requestedReviewer?: string },
) => {
  const params = new URLSearchParams({ status: filter.status });
  if (filter.requestedReviewer) params.set('requestedReviewer', filter.requestedReviewer);
  return queryOptions({
    queryKey: ['orgs', organizationId, 'change-requests', filter.status, filter.requestedReviewer ?? null],
    queryFn: ({ signal }) =>
      requestAll<ChangeRequest>(`/v1/orgs/${encodeURIComponent(organizationId)}/change-requests?${params}`, signal),
  });
};

export const requestedReviewersQuery = (spaceId: string, key: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'change-requests', 'one', key, 'requested-reviewers'],
    queryFn: ({ signal }) => requestAll<RequestedReviewer>(`${crPath(spaceId, key)}/requested-reviewers`, signal),
  });

export function useRequestReviewer(spaceId: string, key: string) {
  return useChangeRequestAction(spaceId, (userId: string) =>
    request(`${crPath(spaceId, key)}/requested-reviewers`, { method: 'POST', body: { users: [userId] } }),
  );
}

export function useRemoveReviewer(spaceId: string, key: string) {
  return useChangeRequestAction(spaceId, (userId: string) =>
    request<void>(`${crPath(spaceId, key)}/requested-reviewers/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
  );
}
