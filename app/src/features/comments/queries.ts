/**
 * Comments and replies of a space or of a change request: the same operations under two paths
 * (`…InSpace`, `…InChangeRequest`). Every change refreshes what the app shows of the space.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Comment, CommentAnchor, CommentReply, ThreadScope } from './types';

function scopePath(scope: ThreadScope): string {
  const space = `/v1/spaces/${encodeURIComponent(scope.spaceId)}`;
  return scope.changeRequest === undefined
    ? space
    : `${space}/change-requests/${encodeURIComponent(scope.changeRequest)}`;
}

function scopeKey(scope: ThreadScope) {
  return scope.changeRequest === undefined
    ? (['spaces', scope.spaceId, 'comments'] as const)
    : (['spaces', scope.spaceId, 'change-requests', 'one', scope.changeRequest, 'comments'] as const);
}

/** The scope's comments, oldest first; only those on `page` when it is given (the `targetPage` filter). */
export const commentsQuery = (scope: ThreadScope, page?: string) =>
  queryOptions({
    queryKey: [...scopeKey(scope), page ?? null],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ order: 'asc' });
      if (page) params.set('targetPage', page);
      return requestAll<Comment>(`${scopePath(scope)}/comments?${params}`, signal);
    },
  });

export const repliesQuery = (scope: ThreadScope, commentId: string) =>
  queryOptions({
    queryKey: [...scopeKey(scope), 'replies', commentId],
    queryFn: ({ signal }) =>
      requestAll<CommentReply>(`${scopePath(scope)}/comments/${encodeURIComponent(commentId)}/replies`, signal),
  });

/** A comment's body as the API takes it: the official Document, here as Markdown (plain text is Markdown). */
function markdownBody(text: string): { markdown: string } {
  return { markdown: text };
}

function useScopeAction<T, R>(scope: ThreadScope, action: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: () => client.invalidateQueries({ queryKey: ['spaces', scope.spaceId] }),
  });
}

/** Starts a thread: on the scope, on a page (`anchor.page`) or on a block of it (`anchor.node`). */
export function usePostComment(scope: ThreadScope, anchor: CommentAnchor = {}) {
  return useScopeAction(scope, (text: string) =>
    request<Comment>(`${scopePath(scope)}/comments`, {
      method: 'POST',
      body: { body: markdownBody(text), ...anchor },
    }),
  );
}

export function useReply(scope: ThreadScope, commentId: string) {
  return useScopeAction(scope, (text: string) =>
    request<CommentReply>(`${scopePath(scope)}/comments/${encodeURIComponent(commentId)}/replies`, {
      method: 'POST',
      body: { body: markdownBody(text) },
    }),
  );
}

/** update…Comment with `resolved`: resolves a thread, or opens it again. */
export function useResolve(scope: ThreadScope, commentId: string) {
  return useScopeAction(scope, (resolved: boolean) =>
    request<Comment>(`${scopePath(scope)}/comments/${encodeURIComponent(commentId)}`, {
      method: 'PUT',
      body: { resolved },
    }),
  );
}
