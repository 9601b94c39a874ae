import { queryOptions } from '@tanstack/react-query';
import { requestAll } from '../../api/client';
import type { SearchSpaceResult } from './types';

/** Search in an organization, or in one space when `spaceId` is given. */
export const searchQuery = (scope: { organizationId?: string; spaceId?: string }, query: string) =>
  queryOptions({
    queryKey: ['search', scope.organizationId ?? null, scope.spaceId ?? null, query],
    queryFn: ({ signal }) => {
      const base = scope.spaceId
        ? `/v1/spaces/${encodeURIComponent(scope.spaceId)}/search`
        : `/v1/orgs/${encodeURIComponent(scope.organizationId ?? '')}/search`;
      return requestAll<SearchSpaceResult>(`${base}?query=${encodeURIComponent(query)}`, signal);
    },
    enabled: query.trim().length > 0,
    staleTime: 30_000,
  });
