/**
 * "Submit for review": pick members of the organization and request their review of the change
 * request (the official requested-reviewers operation); the review screen takes it from there.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useUser } from '../auth/session';
import { Modal } from '../controls/Modal';
import { Loading } from '../layout/Loading';
import { membersQuery } from '../members/queries';
import { requestReviewers } from './queries';
import { useEditSession } from './session';

export function SubmitDialog({ onClose }: { onClose: () => void }) {
  const { spaceId, number, organizationId } = useEditSession();
  const me = useUser();
  const members = useQuery(membersQuery(organizationId));
  const client = useQueryClient();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const submit = useMutation({
    mutationFn: (users: string[]) => requestReviewers(spaceId, number, users),
    onSuccess: () => client.invalidateQueries({ queryKey: ['spaces', spaceId, 'change-requests'] }),
  });
  const others = (members.data ?? []).filter((m) => m.user.id !== me.id);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate([...chosen]);
  };
  return (
    <Modal open onOpenChange={(next) => next || onClose()} title="Submit for review">
      {submit.isSuccess ? (
        <>
          <p role="status">Review requested.</p>
          <div className="actions">
            <Link to="/s/$spaceId/~/changes/$number" params={{ spaceId, number }}>
              Open the change request
            </Link>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={onSubmit}>
          {members.error ? (
            <p role="alert" className="error">
              {members.error.message}
            </p>
          ) : members.isPending ? (
            <Loading label="Loading members" />
          ) : others.length === 0 ? (
            <p>Nobody else is a member of this organization yet.</p>
          ) : (
            <fieldset>
              <legend>Reviewers</legend>
              {others.map((member) => (
                <p key={member.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={chosen.has(member.user.id)}
                      onChange={(event) => {
                        const next = new Set(chosen);
                        if (event.target.checked) next.add(member.user.id);
                        else next.delete(member.user.id);
                        setChosen(next);
                      }}
                    />{' '}
                    {member.user.displayName}
                  </label>
                </p>
              ))}
            </fieldset>
          )}
          {submit.error ? (
            <p role="alert" className="error">
              {submit.error.message}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" disabled={chosen.size === 0 || submit.isPending}>
              Request review
            </button>
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
