/** The members screen's reads and changes; each change refreshes what it touched. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import { organizationQuery } from '../organizations/queries';
import type { InviteLink, Member, RoleOrGuest } from './types';

const org = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}`;

/** The members by name; only those whose name or e-mail address contains `search` when it is given. */
export const membersQuery = (organizationId: string, search = '') =>
  queryOptions({
    queryKey: search ? ['orgs', organizationId, 'members', { search }] : ['orgs', organizationId, 'members'],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ sort: 'name', order: 'asc' });
      if (search) params.set('search', search);
      return requestAll<Member>(`${org(organizationId)}/members?${params}`, signal);
    },
  });

export const inviteLinksQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'invite-links'],
    queryFn: ({ signal }) => requestAll<InviteLink>(`${org(organizationId)}/link-invites`, signal),
  });

/** Members, and what counts members (teams, grants), are stale after any change of membership. */
function useRefreshMembers(organizationId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['orgs', organizationId] });
}

export function useUpdateMemberRole(organizationId: string) {
  const refresh = useRefreshMembers(organizationId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: RoleOrGuest }) =>
      request<Member>(`${org(organizationId)}/members/${encodeURIComponent(userId)}`, {
        method: 'PATCH',
        body: { role },
      }),
    onSuccess: refresh,
  });
}

export function useRemoveMember(organizationId: string) {
  const refresh = useRefreshMembers(organizationId);
  return useMutation({
    mutationFn: (userId: string) =>
      request<void>(`${org(organizationId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** `inviteUsersToOrganization`: each address becomes a member (and is mailed when the server sends mail). */
export function useInviteByEmail(organizationId: string) {
  const refresh = useRefreshMembers(organizationId);
  return useMutation({
    mutationFn: (input: { emails: string[]; role: RoleOrGuest }) =>
      request<{ users: string[]; invited: number }>(`${org(organizationId)}/invites`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: refresh,
  });
}

/** The body of `createOrganizationInvite`: one of the official variants. */
export type InviteLinkTarget = (
  | { role: RoleOrGuest }
  | { level: RoleOrGuest; space: string }
  | { level: RoleOrGuest; collection: string }
) &
  InviteLinkLimits;

/** Until when a link works and how many people may join with it (unlimited when absent). */
export interface InviteLinkLimits {
  expiresAt?: string;
  maxUses?: number;
}

export function useCreateInviteLink(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteLinkTarget) =>
      request<InviteLink>(`${org(organizationId)}/link-invites`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteLinksQuery(organizationId).queryKey }),
  });
}

export function useDeleteInviteLink(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      request<void>(`${org(organizationId)}/link-invites/${encodeURIComponent(inviteId)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: inviteLinksQuery(organizationId).queryKey }),
  });
}

/** Invite links work only while the organization allows them (`inviteLinks`). */
export function useAllowInviteLinks(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (inviteLinks: boolean) => request(org(organizationId), { method: 'PATCH', body: { inviteLinks } }),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationQuery(organizationId).queryKey }),
  });
}
