/**
 * Who is asked to review the change request (getRequestedReviewersByChangeRequestId): each with
 * "Remove", and "Request review" from a member of the organization. Errors show beside the control.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { MemberPicker } from '../organizations/MemberPicker';
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
  const add = useRequestReviewer(spaceId, number);
  const remove = useRemoveReviewer(spaceId, number);
  const [picking, setPicking] = useState(false);
  const users = requested.flatMap((r) => (r.kind === 'user' && r.user ? [r.user] : []));
  const requestedIds = new Set(users.map((u) => u.id));

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
        <div className="actions">
          <MemberPicker
            organizationId={organizationId}
            open={picking}
            onOpenChange={setPicking}
            trigger="Request a review"
            heading="Request a review from"
            exclude={requestedIds}
            onChoose={(member) => add.mutate(member.user.id)}
          />
          {add.error ? (
            <p role="alert" className="error">
              {add.error.message}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
