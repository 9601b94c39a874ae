import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { UserSession, UserToken } from './types';

export const sessionsQuery = queryOptions({
  queryKey: ['user', 'sessions'],
  queryFn: ({ signal }) => requestAll<UserSession>('/v1/user/sessions', signal),
});

export const tokensQuery = queryOptions({
  queryKey: ['user', 'tokens'],
  queryFn: ({ signal }) => requestAll<UserToken>('/v1/user/tokens', signal),
});

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      request<void>(`/v1/user/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { label: string; expiresAt?: string }) =>
      request<UserToken & { token: string }>('/v1/user/tokens', { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokensQuery.queryKey }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      request<void>(`/v1/user/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokensQuery.queryKey }),
  });
}
