/** Who is signed in: `GET /auth/session`, kept by TanStack Query; `null` when nobody is. */
import { queryOptions, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../api/client';
import type { AuthStatus, Session, User } from './types';

/** `GET /auth/status`: the session (null when nobody is signed in) and the single sign-on links. */
export const statusQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<AuthStatus> => {
    const status = await request<AuthStatus>('/auth/status');
    setCsrfToken(status.session?.csrfToken ?? null);
    return status;
  },
  staleTime: 60_000,
});

export function useAuthStatus(): AuthStatus {
  return useSuspenseQuery(statusQuery).data;
}

export function useSession(): Session | null {
  return useAuthStatus().session;
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
      // Nothing of the previous person's may stay on screen or in memory; the gate shows sign-in.
      const status = client.getQueryData(statusQuery.queryKey);
      client.setQueryData(statusQuery.queryKey, { session: null, sso: status?.sso ?? [] });
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== statusQuery.queryKey[0] });
    },
  });
}
