/**
 * Changes to an organization's tree through the official operations: createSpace, createCollection,
 * updateSpaceById / updateCollectionById (rename), moveSpace / moveCollection, deleteSpaceById /
 * deleteCollectionById. Each refreshes the organization's lists, and the item's own data.
 */
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import type { Collection, Space } from '../../api/types';

export type TreeItemKind = 'space' | 'collection';

const itemPath = (kind: TreeItemKind, id: string) =>
  `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${encodeURIComponent(id)}`;

/** The query key under which the app keeps an item (and, for a space, its content). */
const itemKey = (kind: TreeItemKind, id: string) => [kind === 'space' ? 'spaces' : 'collections', id];

function useTreeChange<T, R>(
  organizationId: string,
  action: (input: T) => Promise<R>,
  after: (client: QueryClient) => Promise<unknown> = async () => {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async () => {
      await after(client);
      await client.invalidateQueries({ queryKey: ['orgs', organizationId] });
    },
  });
}

export function useCreateItem(organizationId: string, kind: TreeItemKind) {
  return useTreeChange(organizationId, (input: { title: string; parent?: string }) =>
    request<Space | Collection>(
      `/v1/orgs/${encodeURIComponent(organizationId)}/${kind === 'space' ? 'spaces' : 'collections'}`,
      { method: 'POST', body: input.parent ? input : { title: input.title } },
    ),
  );
}

export function useRenameItem(organizationId: string, kind: TreeItemKind, id: string) {
  return useTreeChange(
    organizationId,
    (title: string) => request(itemPath(kind, id), { method: 'PATCH', body: { title } }),
    (client) => client.invalidateQueries({ queryKey: itemKey(kind, id), exact: true }),
  );
}

/** `parent: null` moves the item to the top of the organization. */
export function useMoveItem(organizationId: string, kind: TreeItemKind, id: string) {
  return useTreeChange(
    organizationId,
    (parent: string | null) => request(`${itemPath(kind, id)}/move`, { method: 'POST', body: { parent } }),
    (client) => client.invalidateQueries({ queryKey: itemKey(kind, id), exact: true }),
  );
}

/**
 * `leave` runs first (and is awaited): the screen of what is gone leaves it before its data is
 * dropped, so nothing asks the API again for what is no longer there.
 */
export function useDeleteItem(organizationId: string, kind: TreeItemKind, id: string, leave: () => Promise<void>) {
  return useTreeChange(
    organizationId,
    () => request<void>(itemPath(kind, id), { method: 'DELETE' }),
    async (client) => {
      await leave();
      client.removeQueries({ queryKey: itemKey(kind, id), type: 'inactive' });
    },
  );
}
