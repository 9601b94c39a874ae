/**
 * "Share": who has access to a space or collection (people and teams with their role), and, for
 * whoever administers it, giving access, changing a role and taking access away. Radix Dialog.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Choice } from '../controls/Choice';
import { CloseButton, Modal } from '../controls/Modal';
import { membersQuery } from '../members/queries';
import { ROLE_LABELS, ROLES, roleLabel } from '../members/roles';
import type { Role } from '../members/types';
import { teamsQuery } from '../teams/queries';
import { granteeOf, shareCandidates } from './candidates';
import { type Grantee, teamGrantsQuery, useChangeGrant, useRemoveGrant, userGrantsQuery, useShare } from './queries';
import type { ShareTarget } from './types';

const GRANT_OPTIONS = ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));

export function ShareButton({ target }: { target: ShareTarget }) {
  return (
    <Modal
      trigger={
        <button type="button" aria-label={`Share ${target.title}`}>
          Share
        </button>
      }
      title={`Share ${target.title}`}
      description={
        target.admin
          ? `Give people and teams access to this ${target.kind}, or change what they can do.`
          : `Who has access to this ${target.kind} besides the organization's roles.`
      }
    >
      {target.admin ? <ShareForm target={target} /> : null}
      <Grants target={target} />
      <div className="actions dialog-actions">
        <CloseButton>Close</CloseButton>
      </div>
    </Modal>
  );
}

function ShareForm({ target }: { target: ShareTarget }) {
  // Not suspending: the screen behind the dialog must not give way to a loading state.
  const { data: members = [] } = useQuery(membersQuery(target.organizationId));
  const { data: teams = [] } = useQuery(teamsQuery(target.organizationId));
  const { data: userGrants = [] } = useQuery(userGrantsQuery(target));
  const { data: teamGrants = [] } = useQuery(teamGrantsQuery(target));
  const share = useShare(target);
  const [who, setWho] = useState('');
  const [role, setRole] = useState<string>('read');
  const whoId = useId();
  const roleId = useId();
  const candidates = shareCandidates(members, teams, userGrants, teamGrants);
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (who) share.mutate({ grantee: granteeOf(who), role: role as Role }, { onSuccess: () => setWho('') });
      }}
    >
      <label htmlFor={whoId}>Person or team</label>
      <Choice id={whoId} value={who} placeholder="Choose" options={candidates} onChange={setWho} />
      <label htmlFor={roleId}>Role</label>
      <Choice id={roleId} value={role} options={GRANT_OPTIONS} onChange={setRole} />
      <button type="submit" disabled={!who || share.isPending}>
        Give access
      </button>
      {share.error ? (
        <p role="alert" className="error">
          {share.error.message}
        </p>
      ) : null}
    </form>
  );
}

function Grants({ target }: { target: ShareTarget }) {
  const headingId = useId();
  const users = useQuery(userGrantsQuery(target));
  const teams = useQuery(teamGrantsQuery(target));
  const error = users.error ?? teams.error;
  if (error)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    );
  if (!users.data || !teams.data) return <p className="muted">Loading who has access…</p>;
  const rows = [
    ...teams.data.map((grant) => ({
      grantee: { kind: 'team', id: grant.team.id } as Grantee,
      name: `Team: ${grant.team.title}`,
      role: grant.permission,
    })),
    ...users.data.map((grant) => ({
      grantee: { kind: 'user', id: grant.user.id } as Grantee,
      name: grant.user.displayName,
      role: grant.permission,
    })),
  ];
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="dialog-subtitle">
        Who has access
      </h3>
      {rows.length === 0 ? (
        <p>Not shared with anyone yet.</p>
      ) : (
        <ul className="people">
          {rows.map((row) => (
            <GrantRow key={`${row.grantee.kind}:${row.grantee.id}`} target={target} {...row} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantRow({
  target,
  grantee,
  name,
  role,
}: {
  target: ShareTarget;
  grantee: Grantee;
  name: string;
  role: Role;
}) {
  const change = useChangeGrant(target);
  const remove = useRemoveGrant(target);
  const error = change.error?.message ?? remove.error?.message;
  return (
    <li className="person">
      <div className="person-name">
        <strong>{name}</strong>
      </div>
      {target.admin ? (
        <div className="person-controls">
          <Choice
            label={`Role of ${name}`}
            value={role}
            options={GRANT_OPTIONS}
            disabled={change.isPending}
            onChange={(value) => change.mutate({ grantee, role: value as Role })}
          />
          <button
            type="button"
            aria-label={`Remove access for ${name}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(grantee)}
          >
            Remove
          </button>
        </div>
      ) : (
        <span className="person-role">{roleLabel(role)}</span>
      )}
      {error ? (
        <p role="alert" className="error person-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}
