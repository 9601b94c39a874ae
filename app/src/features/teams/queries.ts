/** The teams screen's reads and changes; each change refreshes the organization's people data. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Team, TeamMember, TeamRole } from './types';

const teams = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}/teams`;
const team = (organizationId: string, teamId: string) => `${teams(organizationId)}/${encodeURIComponent(teamId)}`;

export const teamsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'teams'],
    queryFn: ({ signal }) => requestAll<Team>(teams(organizationId), signal),
  });

export const teamMembersQuery = (organizationId: string, teamId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'teams', teamId, 'members'],
    queryFn: ({ signal }) => requestAll<TeamMember>(`${team(organizationId, teamId)}/members`, signal),
  });

/** A team change moves counts on members and teams alike: refresh the organization's lists. */
function useTeamMutation<T>(organizationId: string, mutationFn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orgs', organizationId] }),
  });
}

export const useCreateTeam = (organizationId: string) =>
  useTeamMutation(organizationId, (title: string) =>
    request<Team>(teams(organizationId), { method: 'PUT', body: { title } }),
  );

export const useRenameTeam = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, (title: string) =>
    request<Team>(team(organizationId, teamId), { method: 'PATCH', body: { title } }),
  );

export const useDeleteTeam = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, () => request<void>(team(organizationId, teamId), { method: 'DELETE' }));

export const useAddTeamMember = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, (userId: string) =>
    request<void>(`${team(organizationId, teamId)}/members/${encodeURIComponent(userId)}`, {
      method: 'PUT',
      body: {},
    }),
  );

/** `addMemberToOrganizationTeamById` with a role: sets the role of someone already in the team. */
export const useSetTeamRole = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, ({ userId, role }: { userId: string; role: TeamRole }) =>
    request<void>(`${team(organizationId, teamId)}/members/${encodeURIComponent(userId)}`, {
      method: 'PUT',
      body: { role },
    }),
  );

export const useRemoveTeamMember = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, (userId: string) =>
    request<void>(`${team(organizationId, teamId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
  );
