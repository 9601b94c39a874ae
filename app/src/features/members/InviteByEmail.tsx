/** Invite people by e-mail (`inviteUsersToOrganization`) with the role they get. */
import { type FormEvent, useId, useState } from 'react';
import { Choice } from '../controls/Choice';
import { useInviteByEmail } from './queries';
import { parseEmails, ROLE_OPTIONS, roleFromValue } from './roles';

export function InviteByEmail({ organizationId }: { organizationId: string }) {
  const invite = useInviteByEmail(organizationId);
  const [text, setText] = useState('');
  const [role, setRole] = useState('read');
  const [problem, setProblem] = useState<string | null>(null);
  const emailsId = useId();
  const roleId = useId();
  const messageId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const { emails, invalid } = parseEmails(text);
    if (invalid.length > 0) return setProblem(`Not an e-mail address: ${invalid.join(', ')}`);
    if (emails.length === 0) return setProblem('Enter at least one e-mail address.');
    setProblem(null);
    invite.mutate({ emails, role: roleFromValue(role) }, { onSuccess: () => setText('') });
  }

  const error = problem ?? invite.error?.message;
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite people</h2>
      <form onSubmit={submit} className="stacked-form" aria-describedby={messageId}>
        <label htmlFor={emailsId}>E-mail addresses</label>
        <textarea
          id={emailsId}
          rows={2}
          value={text}
          placeholder="name@example.com, other@example.com"
          onChange={(e) => setText(e.target.value)}
        />
        <div className="inline-form">
          <label htmlFor={roleId}>Role</label>
          <Choice id={roleId} value={role} options={ROLE_OPTIONS} onChange={setRole} />
          <button type="submit" disabled={invite.isPending}>
            Invite
          </button>
        </div>
        <div id={messageId}>
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
          {/* Always there, so that screen readers announce what appears in it. */}
          <p role="status">{!error && invite.data ? invitedText(invite.data.invited) : null}</p>
        </div>
      </form>
    </section>
  );
}

function invitedText(invited: number): string {
  if (invited === 0) return 'Everyone listed was already a member.';
  return `Invited ${invited} ${invited === 1 ? 'person' : 'people'}.`;
}
