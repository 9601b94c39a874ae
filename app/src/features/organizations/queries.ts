import { queryOptions } from '@tanstack/react-query';
import { request, requestAll } from '../../api/client';
import type { Collection, Organization, Space } from '../../api/types';

export const organizationsQuery = queryOptions({
  queryKey: ['orgs'],
  queryFn: ({ signal }) => requestAll<Organization>('/v1/orgs', signal),
});

export const organizationQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId],
    queryFn: ({ signal }) => request<Organization>(`/v1/orgs/${encodeURIComponent(organizationId)}`, { signal }),
  });

export const organizationSpacesQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'spaces'],
    queryFn: ({ signal }) => requestAll<Space>(`/v1/orgs/${encodeURIComponent(organizationId)}/spaces`, signal),
  });

export const organizationCollectionsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'collections'],
    queryFn: ({ signal }) =>
      requestAll<Collection>(`/v1/orgs/${encodeURIComponent(organizationId)}/collections`, signal),
  });

export const collectionQuery = (collectionId: string) =>
  queryOptions({
    queryKey: ['collections', collectionId],
    queryFn: ({ signal }) =>
      request<Collection & { organization: string }>(`/v1/collections/${encodeURIComponent(collectionId)}`, {
        signal,
      }),
  });

export interface Member {
  id: string;
  role: string | null;
  user: { id: string; displayName: string; email?: string };
}

/** The organization's members (listMembersInOrganizationById): whom to request a review from or mention. */
export const organizationMembersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'members'],
    queryFn: ({ signal }) => requestAll<Member>(`/v1/orgs/${encodeURIComponent(organizationId)}/members`, signal),
    staleTime: 60_000,
  });
