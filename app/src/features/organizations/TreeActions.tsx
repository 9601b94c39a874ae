/**
 * "Actions for {title}": a Radix menu beside each collection and space of the organization's tree,
 * with Rename, Move and Delete. The menu opens the dialog after it closes (a dialog opened from
 * inside a menu would lose focus to the closing menu).
 */
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { DeleteDialog, MoveDialog, TitleDialog } from './ItemDialogs';
import { type TreeItemKind, useDeleteItem, useMoveItem, useRenameItem } from './mutations';
import { moveTargets, type TreeNode } from './tree';

type Open = 'rename' | 'move' | 'delete' | null;

export function TreeActions({
  organizationId,
  kind,
  id,
  title,
  parent,
  tree,
}: {
  organizationId: string;
  kind: TreeItemKind;
  id: string;
  title: string;
  parent: string | null;
  /** The whole tree, for where the item may move (worked out when the move dialog opens). */
  tree: TreeNode[];
}) {
  const [open, setOpen] = useState<Open>(null);
  const rename = useRenameItem(organizationId, kind, id);
  const move = useMoveItem(organizationId, kind, id);
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const onScreen = pathname.includes(`/${kind === 'space' ? 's' : 'c'}/${id}`);
  const remove = useDeleteItem(organizationId, kind, id, async () => {
    // The screen of what is gone has nothing left to show: back to the organization.
    if (onScreen) await navigate({ to: '/o/$organizationId', params: { organizationId } });
  });
  const dialog = (name: Open) => (next: boolean) => setOpen(next ? name : null);
  // Each dialog is mounted when it opens, so it starts from the item as it is now, without old errors.
  const show = (name: Open) => {
    for (const m of [rename, move, remove]) m.reset();
    setOpen(name);
  };
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="tree-actions" aria-label={`Actions for ${title}`}>
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
            <DropdownMenu.Item className="menu-item" onSelect={() => show('rename')}>
              Rename
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu-item" onSelect={() => show('move')}>
              Move
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu-item" onSelect={() => show('delete')}>
              Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {open === 'rename' ? (
        <TitleDialog
          open
          onOpenChange={dialog('rename')}
          heading={`Rename “${title}”`}
          label="Title"
          submitLabel="Rename"
          initial={title}
          mutation={rename}
        />
      ) : null}
      {open === 'move' ? (
        <MoveDialog
          open
          onOpenChange={dialog('move')}
          title={title}
          currentParent={parent}
          targets={moveTargets(tree, id)}
          mutation={move}
        />
      ) : null}
      {open === 'delete' ? (
        <DeleteDialog open onOpenChange={dialog('delete')} title={title} kind={kind} mutation={remove} />
      ) : null}
    </>
  );
}
