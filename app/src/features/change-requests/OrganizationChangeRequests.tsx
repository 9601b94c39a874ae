/**
 * `/o/{org}/change-requests`: the change requests of every space of the organization the caller
 * may read, in tabs (Radix Tabs: arrow keys move between them): open, drafts, merged, archived, and "Needs
 * my review" (open ones where the signed-in person is a requested reviewer; `?tab=review`). Each
 * is a link named by its subject.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Tabs } from 'radix-ui';
import { useUser } from '../auth/session';
import { Loading } from '../layout/Loading';
import { OrganizationNav } from '../organizations/OrganizationNav';
import { organizationQuery, organizationSpacesQuery } from '../organizations/queries';
import { organizationChangeRequestsQuery } from './queries';
import type { ChangeRequest } from './types';

const TABS = [
  { value: 'open', label: 'Open' },
  { value: 'draft', label: 'Drafts' },
  { value: 'merged', label: 'Merged' },
  { value: 'archived', label: 'Archived' },
  { value: 'review', label: 'Needs my review' },
] as const;

type Tab = (typeof TABS)[number]['value'];
export type ChangeRequestTab = Tab;

export function isChangeRequestTab(value: unknown): value is Tab {
  return TABS.some((t) => t.value === value);
}

export function OrganizationChangeRequests() {
  const { organizationId } = useParams({ strict: false }) as { organizationId: string };
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const tab: Tab = useSearch({ strict: false }).tab ?? 'open';
  const navigate = useNavigate();
  const setTab = (next: Tab) =>
    navigate({
      to: '/o/$organizationId/change-requests',
      params: { organizationId },
      search: next === 'open' ? {} : { tab: next },
      replace: true,
    });
  return (
    <div className="layout">
      <OrganizationNav organizationId={organizationId} />
      <main className="screen">
        <p className="space-title">{organization.title}</p>
        <h1>Change requests</h1>
        <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)}>
          <Tabs.List className="tab-list" aria-label="Change requests">
            {TABS.map((t) => (
              <Tabs.Trigger key={t.value} value={t.value}>
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {TABS.map((t) => (
            <Tabs.Content key={t.value} value={t.value} className="tab-panel">
              {tab === t.value ? <ChangeRequestList organizationId={organizationId} tab={t.value} /> : null}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </div>
  );
}

function ChangeRequestList({ organizationId, tab }: { organizationId: string; tab: Tab }) {
  const user = useUser();
  const list = useQuery(
    organizationChangeRequestsQuery(
      organizationId,
      tab === 'review' ? { status: 'open', requestedReviewer: user.id } : { status: tab },
    ),
  );
  const spaces = useQuery(organizationSpacesQuery(organizationId));
  const spaceTitle = new Map((spaces.data ?? []).map((s) => [s.id, s.title] as const));
  if (list.error) {
    return (
      <p role="alert" className="error">
        {list.error.message}
      </p>
    );
  }
  if (list.isPending) return <Loading label="Loading change requests" />;
  if (list.data.length === 0) {
    return <p>{tab === 'review' ? 'No change request is waiting for your review.' : 'No change requests.'}</p>;
  }
  return (
    <ul className="cards change-list">
      {list.data.map((cr) => {
        const spaceId = spaceOf(cr);
        return (
          <li key={cr.id}>
            <Link to="/s/$spaceId/~/changes/$number" params={{ spaceId, number: String(cr.number) }}>
              {cr.subject || `Change request #${cr.number}`}
            </Link>{' '}
            <span className="muted">
              {spaceTitle.get(spaceId) ?? 'A space'} · #{cr.number} by {cr.createdBy?.displayName ?? 'someone'}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function spaceOf(cr: ChangeRequest): string {
  return typeof cr.space === 'string' ? cr.space : (cr.space?.id ?? '');
}
