/** A team's dialogs (Radix Dialog: focus kept inside, Escape closes): rename it, and its members. */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Choice } from '../controls/Choice';
import { CloseButton, Modal } from '../controls/Modal';
import { ApiErrorText } from '../layout/ApiErrorText';
import { MemberPicker } from '../organizations/MemberPicker';
import { teamMembersQuery, useAddTeamMember, useRemoveTeamMember, useRenameTeam, useSetTeamRole } from './queries';
import type { Team, TeamMember, TeamRole } from './types';

/** The official team roles: an owner manages the team's members. */
const TEAM_ROLE_OPTIONS: { value: TeamRole; label: string }[] = [
  { value: 'owner', label: 'Owner' },
  { value: 'member', label: 'Member' },
];

export function RenameTeam({ organizationId, team }: { organizationId: string; team: Team }) {
  const rename = useRenameTeam(organizationId, team.id);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState(team.title);
  const titleId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    rename.mutate(title.trim(), { onSuccess: () => setOpen(false) });
  }
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setTitle(team.title);
          rename.reset();
        }
      }}
      trigger={
        <button type="button" aria-label={`Rename team ${team.title}`}>
          Rename
        </button>
      }
      title={`Rename ${team.title}`}
      description="The new name shows wherever the team is listed."
    >
      <form onSubmit={submit} className="stacked-form">
        <label htmlFor={titleId}>Team name</label>
        <input
          id={titleId}
          type="text"
          required
          maxLength={64}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
        {rename.error ? (
          <p role="alert" className="error">
            {rename.error.message}
          </p>
        ) : null}
        <div className="actions dialog-actions">
          <CloseButton>Cancel</CloseButton>
          <button type="submit" disabled={rename.isPending}>
            Save name
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function TeamMembersDialog({ organizationId, team }: { organizationId: string; team: Team }) {
  return (
    <Modal
      trigger={
        <button type="button" aria-label={`Members of team ${team.title}`}>
          Members
        </button>
      }
      title={`Members of ${team.title}`}
      description={
        team.permissions.admin
          ? 'Add or remove members of the team.'
          : 'Who is in the team. Its owners and the organization’s admins change it.'
      }
    >
      <TeamMembers organizationId={organizationId} team={team} />
      <div className="actions dialog-actions">
        <CloseButton>Close</CloseButton>
      </div>
    </Modal>
  );
}

function TeamMembers({ organizationId, team }: { organizationId: string; team: Team }) {
  const { data: entries, error } = useQuery(teamMembersQuery(organizationId, team.id));
  const remove = useRemoveTeamMember(organizationId, team.id);
  const setRole = useSetTeamRole(organizationId, team.id);
  if (error)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    );
  if (!entries) return <p className="muted">Loading the members…</p>;
  return (
    <>
      {entries.length === 0 ? (
        <p>No members yet.</p>
      ) : (
        <ul className="people">
          {entries.map((entry) => (
            <li key={entry.organization.id} className="person">
              <div className="person-name">
                <strong>{entry.organization.user.displayName}</strong>
                {team.permissions.admin ? null : (
                  <div className="muted">{entry.team.role === 'owner' ? 'Owner' : 'Member'}</div>
                )}
              </div>
              {team.permissions.admin ? (
                <Choice
                  label={`Team role of ${entry.organization.user.displayName}`}
                  value={entry.team.role}
                  options={TEAM_ROLE_OPTIONS}
                  disabled={setRole.isPending}
                  onChange={(role) => setRole.mutate({ userId: entry.organization.id, role })}
                />
              ) : null}
              {team.permissions.admin ? (
                <button
                  type="button"
                  aria-label={`Remove ${entry.organization.user.displayName} from ${team.title}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(entry.organization.id)}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {remove.error || setRole.error ? (
        <p role="alert" className="error">
          {(remove.error ?? setRole.error)?.message}
        </p>
      ) : null}
      {team.permissions.admin ? <AddTeamMember organizationId={organizationId} team={team} entries={entries} /> : null}
    </>
  );
}

/**
 * "Add a member": the organization's MemberPicker (searched as you type: an organization may have
 * too many members to list in one select), without those already in the team.
 */
function AddTeamMember({
  organizationId,
  team,
  entries,
}: {
  organizationId: string;
  team: Team;
  entries: TeamMember[];
}) {
  const add = useAddTeamMember(organizationId, team.id);
  const [picking, setPicking] = useState(false);
  const inTeam = new Set(entries.map((entry) => entry.organization.user.id));
  return (
    <div className="actions">
      <MemberPicker
        organizationId={organizationId}
        open={picking}
        onOpenChange={setPicking}
        trigger="Add a member"
        heading={`Add to ${team.title}`}
        exclude={inTeam}
        onChoose={(member) => add.mutate(member.id)}
      />
      <ApiErrorText error={add.error} />
    </div>
  );
}
