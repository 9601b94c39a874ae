/**
 * `/s/{space}/~/changes/{number}`: a change request as a reviewer sees it: subject and description,
 * "Update from live" when it is behind, what it changes (a visual diff of each page), its requested
 * reviewers, reviews with "Approve" and "Request changes", the comment threads, and "Merge", which
 * lists the merge rules that block it when the API refuses. Beside it, the organization's navigation.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Suspense, useId } from 'react';
import { Loading } from '../layout/Loading';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { spaceQuery } from '../spaces/queries';
import { Changes } from './Changes';
import { Conversation } from './Conversation';
import { MergeRulesNote } from './MergeRulesNote';
import { mergeBlockers } from './merge-rules';
import { changeRequestQuery, useMerge, useUpdateFromLive } from './queries';
import { RequestedReviewers } from './RequestedReviewers';
import { ReviewPanel } from './ReviewPanel';

export function ChangeRequestScreen() {
  const { spaceId, number } = useParams({ strict: false }) as { spaceId: string; number: string };
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId));
  const { data: changeRequest } = useSuspenseQuery(changeRequestQuery(spaceId, number));
  const merge = useMerge(spaceId, number);
  const update = useUpdateFromLive(spaceId, number);
  const open = changeRequest.status === 'open' || changeRequest.status === 'draft';
  const blockers = merge.error ? mergeBlockers(merge.error.message) : null;
  const rulesId = useId();
  return (
    <div className="layout">
      <Suspense fallback={<Loading label="Loading the organization" />}>
        <OrganizationNav organizationId={space.organization} currentSpaceId={space.id} />
      </Suspense>
      <main className="screen change-request">
        <p className="space-title">
          <Link to="/s/$spaceId" params={{ spaceId }}>
            {space.title}
          </Link>{' '}
          /{' '}
          <Link to="/s/$spaceId/~/changes" params={{ spaceId }}>
            Change requests
          </Link>
        </p>
        <h1>{changeRequest.subject || `Change request #${changeRequest.number}`}</h1>
        <p className="muted">
          #{changeRequest.number} · {changeRequest.status} · by {changeRequest.createdBy?.displayName ?? 'someone'}
        </p>
        {changeRequest.description ? <p>{changeRequest.description}</p> : null}
        {open && (space.permissions.merge || space.permissions.edit) ? (
          // Only what the server would allow (the space's permission flags): a 403 is no answer to a click.
          <div className="actions">
            {changeRequest.outdated && space.permissions.edit ? (
              <button type="button" onClick={() => update.mutate(undefined)} disabled={update.isPending}>
                Update from live
              </button>
            ) : null}
            {space.permissions.merge ? (
              <button
                type="button"
                onClick={() => merge.mutate(undefined)}
                disabled={merge.isPending}
                aria-describedby={rulesId}
              >
                Merge
              </button>
            ) : null}
          </div>
        ) : null}
        {open && space.permissions.merge ? <MergeRulesNote id={rulesId} space={space} /> : null}
        {update.error ? (
          <p role="alert" className="error">
            {update.error.message}
          </p>
        ) : null}
        {blockers ? (
          <div role="alert" className="error merge-blockers">
            <p>Merging is blocked by the merge rules:</p>
            <ul>
              {blockers.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </div>
        ) : merge.error ? (
          <p role="alert" className="error">
            {merge.error.message}
          </p>
        ) : merge.data?.result === 'conflicts' ? (
          <p role="alert" className="error">
            The change request conflicts with the live content: update it from live first.
          </p>
        ) : merge.data ? (
          <p role="status">Merged.</p>
        ) : null}
        <section aria-labelledby="changes-heading">
          <h2 id="changes-heading">Changes</h2>
          <Suspense fallback={<Loading label="Loading the changes" />}>
            <Changes spaceId={spaceId} changeRequest={changeRequest} organizationId={space.organization} />
          </Suspense>
        </section>
        <Suspense fallback={<Loading label="Loading the requested reviewers" />}>
          <RequestedReviewers
            spaceId={spaceId}
            number={number}
            organizationId={space.organization}
            open={open && space.permissions.edit === true}
          />
        </Suspense>
        <Suspense fallback={<Loading label="Loading reviews" />}>
          <ReviewPanel spaceId={spaceId} number={number} open={open} />
        </Suspense>
        <Suspense fallback={<Loading label="Loading comments" />}>
          <Conversation spaceId={spaceId} number={number} organizationId={space.organization} />
        </Suspense>
      </main>
    </div>
  );
}
