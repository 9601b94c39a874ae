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

/**
 * Members whose name or e-mail address matches `search` (listMembersInOrganizationById with
 * `search`, by name), a page of them: an organization may have a hundred thousand.
 */
export const memberSearchQuery = (organizationId: string, search: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'members', 'search', search],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ sort: 'name', limit: '20' });
      if (search) params.set('search', search);
      return request<{ items: Member[] }>(`/v1/orgs/${encodeURIComponent(organizationId)}/members?${params}`, {
        signal,
      }).then((page) => page.items);
    },
    staleTime: 60_000,
  });

/** One member (getMemberInOrganizationById): the name of someone a comment mentions. */
export const memberQuery = (organizationId: string, userId: string) =>
  queryOptions({
    queryKey: ['orgs', organizationId, 'members', 'one', userId],
    queryFn: ({ signal }) =>
      request<Member>(`/v1/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`, {
        signal,
      }),
    staleTime: 5 * 60_000,
  });
