/**
 * Who is asked to review the change request (getRequestedReviewersByChangeRequestId): each with
 * "Remove", and "Request review" from a member of the organization. Errors show beside the control.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { organizationMembersQuery } from '../organizations/queries';
import { requestedReviewersQuery, useRemoveReviewer, useRequestReviewer } from './queries';

export function RequestedReviewers({
  spaceId,
  number,
  organizationId,
  open,
}: {
  spaceId: string;
  number: string;
  organizationId: string;
  open: boolean;
}) {
  const { data: requested } = useSuspenseQuery(requestedReviewersQuery(spaceId, number));
  const members = useQuery({ ...organizationMembersQuery(organizationId), enabled: open });
  const add = useRequestReviewer(spaceId, number);
  const remove = useRemoveReviewer(spaceId, number);
  const [choice, setChoice] = useState('');
  const fieldId = useId();
  const users = requested.flatMap((r) => (r.kind === 'user' && r.user ? [r.user] : []));
  const requestedIds = new Set(users.map((u) => u.id));
  const candidates = (members.data ?? []).filter((m) => !requestedIds.has(m.user.id));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!choice) return;
    add.mutate(choice, { onSuccess: () => setChoice('') });
  }

  return (
    <section aria-labelledby="reviewers-heading">
      <h2 id="reviewers-heading">Requested reviewers</h2>
      {users.length === 0 ? (
        <p>No review requested.</p>
      ) : (
        <ul className="reviewers">
          {users.map((user) => (
            <li key={user.id}>
              <span>{user.displayName}</span>
              {open ? (
                <button
                  type="button"
                  onClick={() => remove.mutate(user.id)}
                  disabled={remove.isPending}
                  aria-label={`Remove ${user.displayName} from the reviewers`}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {remove.error ? (
        <p role="alert" className="error">
          {remove.error.message}
        </p>
      ) : null}
      {open ? (
        <form onSubmit={submit} className="inline-form">
          <label htmlFor={fieldId}>Reviewer to request</label>
          <select id={fieldId} value={choice} onChange={(e) => setChoice(e.target.value)}>
            <option value="">{members.isPending ? 'Loading members…' : 'Choose a member'}</option>
            {candidates.map((m) => (
              <option key={m.user.id} value={m.user.id}>
                {m.user.displayName}
              </option>
            ))}
          </select>
          <button type="submit" disabled={add.isPending || !choice}>
            Request review
          </button>
          {add.error || members.error ? (
            <p role="alert" className="error">
              {(add.error ?? members.error)?.message}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
