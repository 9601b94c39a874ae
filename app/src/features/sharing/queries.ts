/**
 * Who has access to a space or collection, and the changes: `inviteToSpace`/`inviteToCollection`,
 * `update…PermissionIn…`, `remove…From…` (the same paths under `/v1/spaces/{id}` and `/v1/collections/{id}`).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Role } from '../members/types';
import type { ShareTarget, TeamGrant, UserGrant } from './types';

const base = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  `/v1/${target.kind === 'space' ? 'spaces' : 'collections'}/${encodeURIComponent(target.id)}/permissions`;

const key = (target: Pick<ShareTarget, 'kind' | 'id'>) => [`${target.kind}s`, target.id, 'permissions'];

export const userGrantsQuery = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  queryOptions({
    queryKey: [...key(target), 'users'],
    queryFn: ({ signal }) => requestAll<UserGrant>(`${base(target)}/users`, signal),
  });

export const teamGrantsQuery = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  queryOptions({
    queryKey: [...key(target), 'teams'],
    queryFn: ({ signal }) => requestAll<TeamGrant>(`${base(target)}/teams`, signal),
  });

/** Who is granted what: a person or a team, by id. */
export interface Grantee {
  kind: 'user' | 'team';
  id: string;
}

function useGrantMutation<T>(target: ShareTarget, mutationFn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: key(target) });
      // Members' and teams' `spaces` counts change with their grants.
      await client.invalidateQueries({ queryKey: ['orgs', target.organizationId] });
    },
  });
}

export const useShare = (target: ShareTarget) =>
  useGrantMutation(target, ({ grantee, role }: { grantee: Grantee; role: Role }) =>
    request<void>(base(target), {
      method: 'POST',
      body: grantee.kind === 'user' ? { role, users: [grantee.id] } : { role, teams: [grantee.id] },
    }),
  );

const granteePath = (target: ShareTarget, grantee: Grantee) =>
  `${base(target)}/${grantee.kind === 'user' ? 'users' : 'teams'}/${encodeURIComponent(grantee.id)}`;

export const useChangeGrant = (target: ShareTarget) =>
  useGrantMutation(target, ({ grantee, role }: { grantee: Grantee; role: Role }) =>
    request<void>(granteePath(target, grantee), { method: 'PATCH', body: { role } }),
  );

export const useRemoveGrant = (target: ShareTarget) =>
  useGrantMutation(target, (grantee: Grantee) => request<void>(granteePath(target, grantee), { method: 'DELETE' }));
