import { queryOptions } from '@tanstack/react-query';
import { request } from '../../api/client';
import type { Revision, Space } from '../../api/types';
import type { PageDocument } from '../document/types';

export const spaceQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId],
    queryFn: ({ signal }) => request<Space>(`/v1/spaces/${encodeURIComponent(spaceId)}`, { signal }),
  });

export const spaceContentQuery = (spaceId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'content'],
    queryFn: ({ signal }) => request<Revision>(`/v1/spaces/${encodeURIComponent(spaceId)}/content`, { signal }),
  });

export const pageQuery = (spaceId: string, pageId: string) =>
  queryOptions({
    queryKey: ['spaces', spaceId, 'content', 'page', pageId],
    queryFn: ({ signal }) =>
      request<PageDocument>(`/v1/spaces/${encodeURIComponent(spaceId)}/content/page/${encodeURIComponent(pageId)}`, {
        signal,
      }),
  });
