/**
 * Changes to an organization's tree through the official operations: createSpace, createCollection,
 * updateSpaceById / updateCollectionById (rename), moveSpace / moveCollection, deleteSpaceById /
 * deleteCollectionById. Each refreshes the organization's lists (and the item's own screen).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/client';
import type { Collection, Space } from '../../api/types';

export type TreeItemKind = 'space' | 'collection';

const itemPath = (kind: TreeItemKind, id: string) =>
  `/v1/${kind === 'space' ? 'spaces' : 'collections'}/${encodeURIComponent(id)}`;

/** `first` runs before the lists refresh, even when the item's controls are gone with it. */
function useTreeChange<T, R>(organizationId: string, action: (input: T) => Promise<R>, first?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async () => {
      first?.();
      await Promise.all([
        client.invalidateQueries({ queryKey: ['orgs', organizationId] }),
        client.invalidateQueries({ queryKey: ['collections'] }),
        client.invalidateQueries({ queryKey: ['spaces'] }),
      ]);
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
  return useTreeChange(organizationId, (title: string) =>
    request(itemPath(kind, id), { method: 'PATCH', body: { title } }),
  );
}

/** `parent: null` moves the item to the top of the organization. */
export function useMoveItem(organizationId: string, kind: TreeItemKind, id: string) {
  return useTreeChange(organizationId, (parent: string | null) =>
    request(`${itemPath(kind, id)}/move`, { method: 'POST', body: { parent } }),
  );
}

/** `onDeleted` runs before the lists refresh (and the item's menu, gone from the tree, unmounts). */
export function useDeleteItem(organizationId: string, kind: TreeItemKind, id: string, onDeleted?: () => void) {
  return useTreeChange(organizationId, () => request<void>(itemPath(kind, id), { method: 'DELETE' }), onDeleted);
}
