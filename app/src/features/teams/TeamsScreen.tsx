/**
 * `/o/{organizationId}/teams`: the organization's teams. Admins create, rename and delete them; whoever
 * manages a team (its `permissions.admin`) changes its members. Refusals show the API's message.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../controls/ConfirmDialog';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { organizationQuery } from '../organizations/queries';
import { teamsQuery, useCreateTeam, useDeleteTeam } from './queries';
import { RenameTeam, TeamMembersDialog } from './TeamDialogs';
import type { Team } from './types';

export function TeamsScreen() {
  const { organizationId } = useParams({ from: '/o/$organizationId/teams' });
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const { data: teams } = useSuspenseQuery(teamsQuery(organizationId));
  const admin = organization.permissions.admin;
  return (
    <div className="layout">
      <OrganizationNav organizationId={organizationId} />
      <main className="screen">
        <h1>Teams of {organization.title}</h1>
        {admin ? <CreateTeam organizationId={organizationId} /> : null}
        {teams.length === 0 ? (
          <p>No teams yet.</p>
        ) : (
          <ul className="people">
            {teams.map((team) => (
              <TeamRow key={team.id} organizationId={organizationId} team={team} admin={admin} />
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}

function CreateTeam({ organizationId }: { organizationId: string }) {
  const create = useCreateTeam(organizationId);
  const [title, setTitle] = useState('');
  const titleId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(title.trim(), { onSuccess: () => setTitle('') });
  }
  return (
    <form onSubmit={submit} className="inline-form">
      <label htmlFor={titleId}>New team name</label>
      <input
        id={titleId}
        type="text"
        required
        maxLength={64}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <button type="submit" disabled={create.isPending}>
        Create team
      </button>
      {create.error ? (
        <p role="alert" className="error">
          {create.error.message}
        </p>
      ) : null}
    </form>
  );
}

function TeamRow({ organizationId, team, admin }: { organizationId: string; team: Team; admin: boolean }) {
  const remove = useDeleteTeam(organizationId, team.id);
  return (
    <li className="person">
      <div className="person-name">
        <strong>{team.title}</strong>
        <div className="muted">
          {team.members} {team.members === 1 ? 'member' : 'members'} · {team.spaces}{' '}
          {team.spaces === 1 ? 'space' : 'spaces'}
        </div>
      </div>
      <div className="person-controls">
        <TeamMembersDialog organizationId={organizationId} team={team} />
        {admin ? (
          <>
            <RenameTeam organizationId={organizationId} team={team} />
            <ConfirmDialog
              trigger={
                <button type="button" aria-label={`Delete team ${team.title}`}>
                  Delete
                </button>
              }
              title={`Delete the team ${team.title}?`}
              description="Its members stay in the organization but lose what was shared with the team."
              confirmLabel="Delete team"
              pending={remove.isPending}
              error={remove.error?.message}
              onConfirm={() => remove.mutateAsync(undefined)}
            />
          </>
        ) : null}
      </div>
    </li>
  );
}
