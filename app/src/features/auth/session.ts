/** Who is signed in: `GET /auth/session`, kept by TanStack Query; `null` when nobody is. */
import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { ApiError, request, setCsrfToken } from '../../api/client';
import type { Session, User } from './types';

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Session | null> => {
    try {
      const session = await request<Session>('/auth/session');
      setCsrfToken(session.csrfToken);
      return session;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw error;
    }
  },
  staleTime: 60_000,
});

export function useSession(): Session | null {
  return useSuspenseQuery(sessionQuery).data;
}

/** The signed-in user; only under the sign-in gate, where there always is one. */
export function useUser(): User {
  const session = useSession();
  if (!session) throw new Error('useUser outside the sign-in gate');
  return session.user;
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      request<{ user: User }>('/auth/login', { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['session'] }),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('/auth/logout', { method: 'POST' }),
    onSuccess: () => {
      setCsrfToken(null);
      // Nothing of the previous person's may stay on screen or in memory.
      client.clear();
      client.setQueryData(sessionQuery.queryKey, null);
    },
  });
}
