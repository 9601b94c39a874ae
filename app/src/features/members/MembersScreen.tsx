/**
 * `/o/{organizationId}/members`: who belongs to the organization, with their role. Admins (the
 * organization's `permissions.admin`) also get the controls: invite by e-mail, invite links, change a
 * role, remove someone. The API decides in the end: a refused change shows its message beside the control.
 */
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useSession } from '../auth/session';
import { Choice } from '../controls/Choice';
import { ConfirmDialog } from '../controls/ConfirmDialog';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { organizationQuery } from '../organizations/queries';
import { InviteByEmail } from './InviteByEmail';
import { InviteLinks } from './InviteLinks';
import { membersQuery, useRemoveMember, useUpdateMemberRole } from './queries';
import { ROLE_OPTIONS, roleFromValue, roleLabel, roleValue } from './roles';
import type { Member } from './types';

export function MembersScreen() {
  const { organizationId } = useParams({ from: '/o/$organizationId/members' });
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const { data: everyone } = useSuspenseQuery(membersQuery(organizationId));
  const [search, setSearch] = useState('');
  const term = useSettled(search.trim(), 250);
  // While a search loads, the list shown before it stays (never a loading screen over it).
  const found = useQuery({
    ...membersQuery(organizationId, term),
    enabled: term !== '',
    placeholderData: keepPreviousData,
  });
  const members = term ? (found.data ?? everyone) : everyone;
  const admin = organization.permissions.admin;
  const searchId = useId();
  return (
    <div className="layout">
      <OrganizationNav organizationId={organizationId} />
      <main className="screen">
        <h1>Members of {organization.title}</h1>
        {admin ? <InviteByEmail organizationId={organizationId} /> : null}
        <section aria-labelledby="members-heading">
          <h2 id="members-heading">Members ({everyone.length})</h2>
          <div className="inline-form">
            <label htmlFor={searchId}>Search members</label>
            <input
              id={searchId}
              type="search"
              value={search}
              placeholder="Name or e-mail address"
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          <p role="status" className="muted">
            {term && found.data && !found.isPlaceholderData
              ? `${found.data.length} ${found.data.length === 1 ? 'member matches' : 'members match'} “${term}”.`
              : ''}
          </p>
          {found.error ? (
            <p role="alert" className="error">
              {found.error.message}
            </p>
          ) : null}
          <ul className="people" aria-label="Members">
            {members.map((member) => (
              <MemberRow key={member.id} organizationId={organizationId} member={member} admin={admin} />
            ))}
          </ul>
        </section>
        {admin ? <InviteLinks organization={organization} /> : null}
      </main>
    </div>
  );
}

function MemberRow({ organizationId, member, admin }: { organizationId: string; member: Member; admin: boolean }) {
  const me = useSession()?.user.id === member.id;
  const update = useUpdateMemberRole(organizationId);
  const remove = useRemoveMember(organizationId);
  const name = member.user.displayName;
  const errorId = `member-error-${member.id}`;
  const error = update.error?.message;
  return (
    <li className="person">
      <div className="person-name">
        <strong>{name}</strong>
        {me ? <span className="muted"> (you)</span> : null}
        {member.user.email ? <div className="muted">{member.user.email}</div> : null}
        {member.disabled ? <div className="muted">Disabled</div> : null}
      </div>
      {admin ? (
        <div className="person-controls">
          <Choice
            label={`Role of ${name}`}
            value={roleValue(member.role)}
            options={ROLE_OPTIONS}
            disabled={update.isPending}
            describedBy={error ? errorId : undefined}
            onChange={(value) => update.mutate({ userId: member.id, role: roleFromValue(value) })}
          />
          <ConfirmDialog
            trigger={
              <button type="button" aria-label={`Remove ${name}`}>
                Remove
              </button>
            }
            title={`Remove ${name}?`}
            description={`${name} loses access to everything in this organization that was not shared with them elsewhere.`}
            confirmLabel="Remove"
            pending={remove.isPending}
            error={remove.error?.message}
            onConfirm={() => remove.mutateAsync(member.id)}
          />
        </div>
      ) : (
        <span className="person-role">{roleLabel(member.role)}</span>
      )}
      {error ? (
        <p id={errorId} role="alert" className="error person-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** `value` once it has stayed the same for `ms` (a search is asked for when the typing pauses). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
