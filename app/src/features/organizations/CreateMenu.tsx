/** "New": a Radix menu with "Space" and "Collection", each opening a dialog that asks for a title. */
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { type DialogAction, TitleDialog } from './ItemDialogs';
import { type TreeItemKind, useCreateItem } from './mutations';

const WORDS: Record<TreeItemKind, { heading: string; label: string; submitLabel: string }> = {
  space: { heading: 'New space', label: 'Space title', submitLabel: 'Create space' },
  collection: { heading: 'New collection', label: 'Collection title', submitLabel: 'Create collection' },
};

/** `parent`: create inside this collection (named by `label`, the trigger's accessible name). */
export function CreateMenu({
  organizationId,
  parent,
  label,
}: {
  organizationId: string;
  parent?: string;
  label?: string;
}) {
  const [open, setOpen] = useState<TreeItemKind | null>(null);
  const space = useCreateItem(organizationId, 'space');
  const collection = useCreateItem(organizationId, 'collection');
  const navigate = useNavigate();
  const show = (kind: TreeItemKind) => {
    space.reset();
    collection.reset();
    setOpen(kind);
  };
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="create-trigger" aria-label={label}>
          New
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
            <DropdownMenu.Item className="menu-item" onSelect={() => show('space')}>
              Space
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu-item" onSelect={() => show('collection')}>
              Collection
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {open ? (
        <TitleDialog
          key={open}
          open
          onOpenChange={(next) => setOpen(next ? open : null)}
          {...WORDS[open]}
          mutation={withParent(open === 'space' ? space : collection, parent)}
          onDone={(created) => {
            // A new space opens; a new collection shows in the tree.
            const id = (created as { id?: string } | undefined)?.id;
            if (open === 'space' && id) navigate({ to: '/s/$spaceId', params: { spaceId: id } });
          }}
        />
      ) : null}
    </>
  );
}

/** The create mutation as the title dialog takes it: a title, created under `parent`. */
function withParent(mutation: ReturnType<typeof useCreateItem>, parent?: string): DialogAction<string> {
  return {
    mutate: (title, options) => mutation.mutate({ title, parent }, options),
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  };
}
