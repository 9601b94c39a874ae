/**
 * `/s/{space}/~/changes`: a space's change requests by status, each a link named by its subject,
 * beside the organization's navigation.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { Loading } from '../layout/Loading';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { spaceQuery } from '../spaces/queries';
import { changeRequestsQuery } from './queries';

const STATUSES = [
  { value: 'open', label: 'Open' },
  { value: 'merged', label: 'Merged' },
  { value: 'archived', label: 'Archived' },
  { value: 'draft', label: 'Drafts' },
] as const;

export function ChangeRequestsScreen() {
  const { spaceId } = useParams({ strict: false }) as { spaceId: string };
  const { data: space } = useSuspenseQuery(spaceQuery(spaceId));
  const [status, setStatus] = useState<string>('open');
  const list = useQuery(changeRequestsQuery(spaceId, status));
  return (
    <div className="layout">
      <Suspense fallback={<Loading label="Loading the organization" />}>
        <OrganizationNav organizationId={space.organization} currentSpaceId={space.id} />
      </Suspense>
      <main className="screen">
        <p className="space-title">
          <Link to="/s/$spaceId" params={{ spaceId }}>
            {space.title}
          </Link>
        </p>
        <h1>Change requests</h1>
        <fieldset className="segmented">
          <legend className="visually-hidden">Status</legend>
          {STATUSES.map((s) => (
            <label key={s.value}>
              <input
                type="radio"
                name="status"
                value={s.value}
                checked={status === s.value}
                onChange={() => setStatus(s.value)}
              />
              {s.label}
            </label>
          ))}
        </fieldset>
        {list.error ? (
          <p role="alert" className="error">
            {list.error.message}
          </p>
        ) : list.isPending ? (
          <Loading label="Loading change requests" />
        ) : list.data.length === 0 ? (
          <p>No change requests.</p>
        ) : (
          <ul className="cards change-list">
            {list.data.map((cr) => (
              <li key={cr.id}>
                <Link to="/s/$spaceId/~/changes/$number" params={{ spaceId, number: String(cr.number) }}>
                  {cr.subject || `Change request #${cr.number}`}
                </Link>{' '}
                <span className="muted">
                  #{cr.number} by {cr.createdBy?.displayName ?? 'someone'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
