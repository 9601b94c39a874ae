/**
 * Invite links (`createOrganizationInvite` and its list): a link that lets whoever holds it join the
 * organization with a role, or join as a guest with a level on one space or collection (the official
 * variants). The organization must allow invite links; an admin turns that on here.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Organization } from '../../api/types';
import { Choice } from '../controls/Choice';
import { useCopy } from '../controls/useCopy';
import { organizationCollectionsQuery, organizationSpacesQuery } from '../organizations/queries';
import { inviteLinksQuery, useAllowInviteLinks, useCreateInviteLink, useDeleteInviteLink } from './queries';
import { ROLE_OPTIONS, roleFromValue, roleLabel } from './roles';
import { inviteLinkBody, inviteLinkLimits, inviteLinkTargetLabel, ORGANIZATION_TARGET } from './targets';
import type { InviteLink } from './types';

export function InviteLinks({ organization }: { organization: Organization }) {
  const allow = useAllowInviteLinks(organization.id);
  return (
    <section aria-labelledby="links-heading">
      <h2 id="links-heading">Invite links</h2>
      {organization.inviteLinks ? (
        <>
          <CreateInviteLink organizationId={organization.id} />
          <InviteLinkList organizationId={organization.id} />
        </>
      ) : (
        <div className="inline-form">
          <p>Invite links are turned off for this organization.</p>
          <button type="button" onClick={() => allow.mutate(true)} disabled={allow.isPending}>
            Allow invite links
          </button>
          {allow.error ? (
            <p role="alert" className="error">
              {allow.error.message}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function CreateInviteLink({ organizationId }: { organizationId: string }) {
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(organizationId));
  const { data: collections } = useSuspenseQuery(organizationCollectionsQuery(organizationId));
  const create = useCreateInviteLink(organizationId);
  const [target, setTarget] = useState(ORGANIZATION_TARGET);
  const [role, setRole] = useState('read');
  const [expiresOn, setExpiresOn] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const targetId = useId();
  const roleId = useId();
  const expiresId = useId();
  const usesId = useId();
  const targets = [
    { value: ORGANIZATION_TARGET, label: 'The whole organization' },
    ...collections.map((c) => ({ value: `collection:${c.id}`, label: `Collection: ${c.title}` })),
    ...spaces.map((s) => ({ value: `space:${s.id}`, label: `Space: ${s.title}` })),
  ];
  return (
    <>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const limits = inviteLinkLimits(expiresOn, maxUses);
          if ('error' in limits) return setInvalid(limits.error);
          setInvalid(null);
          create.mutate({ ...inviteLinkBody(target, roleFromValue(role)), ...limits });
        }}
      >
        <label htmlFor={targetId}>Gives access to</label>
        <Choice id={targetId} value={target} options={targets} onChange={setTarget} />
        <label htmlFor={roleId}>{target === ORGANIZATION_TARGET ? 'Role it gives' : 'Level it gives'}</label>
        <Choice id={roleId} value={role} options={ROLE_OPTIONS} onChange={setRole} />
        <label htmlFor={expiresId}>Expires on</label>
        <input id={expiresId} type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
        <label htmlFor={usesId}>Maximum uses</label>
        <input
          id={usesId}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={maxUses}
          onChange={(e) => setMaxUses(e.target.value)}
        />
        <button type="submit" disabled={create.isPending}>
          Create invite link
        </button>
      </form>
      {invalid || create.error ? (
        <p role="alert" className="error">
          {invalid ?? create.error?.message}
        </p>
      ) : null}
      {create.data ? <LinkField label="New invite link" url={create.data.urls.app} /> : null}
    </>
  );
}

function InviteLinkList({ organizationId }: { organizationId: string }) {
  const { data: links, error } = useQuery(inviteLinksQuery(organizationId));
  const remove = useDeleteInviteLink(organizationId);
  if (error)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    );
  if (!links) return null;
  if (links.length === 0) return <p className="muted">No invite links yet.</p>;
  return (
    <>
      {remove.error ? (
        <p role="alert" className="error">
          {remove.error.message}
        </p>
      ) : null}
      <ul className="people">
        {links.map((link) => (
          <li key={link.id} className="person">
            <div className="person-name">
              <strong>{inviteLinkTargetLabel(link)}</strong>
              <div className="muted">
                {roleLabel(link.level !== undefined ? link.level : link.role)} · used {link.uses}
                {link.maxUses ? ` of ${link.maxUses}` : ''} {link.uses === 1 ? 'time' : 'times'}
                {link.expiresAt ? ` · expires ${new Date(link.expiresAt).toLocaleString()}` : ''}
              </div>
            </div>
            <LinkField label={`Invite link: ${describe(link)}`} url={link.urls.app} hideLabel />
            <button
              type="button"
              aria-label={`Delete invite link: ${describe(link)}`}
              onClick={() => remove.mutate(link.id)}
              disabled={remove.isPending}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

const describe = (link: InviteLink) =>
  `${inviteLinkTargetLabel(link)}, ${roleLabel(link.level !== undefined ? link.level : link.role)}, made ${new Date(link.createdAt).toLocaleString()}`;

/** The link to hand out, selectable, with a button that copies it. */
function LinkField({ label, url, hideLabel }: { label: string; url: string; hideLabel?: boolean }) {
  const id = useId();
  const { copy, message } = useCopy('link');
  return (
    <div className="inline-form link-field">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input id={id} type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" aria-label={hideLabel ? `Copy link (${label})` : undefined} onClick={() => copy(url)}>
        Copy link
      </button>
      <span role="status" className="muted">
        {message}
      </span>
    </div>
  );
}
