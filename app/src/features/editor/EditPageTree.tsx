/**
 * The page tree while editing a change request: "New page", "New group", "New link"; per page a menu
 * to rename, set the emoji and description, move (up, down, indent, outdent: the keyboard's way) and
 * delete; pages can also be dragged before another. Every change is a batch operation through the
 * session's queue. A deletion waits a few seconds behind an "Undo" before it is sent.
 */
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { RevisionPage } from '../../api/types';
import { basePath } from '../../base';
import { firstDocument } from '../spaces/pages';
import { type Field, FieldsDialog } from './FieldsDialog';
import type { Change } from './save-queue';
import { useEditSession } from './session';
import { type MoveKind, moveBefore, moveStep, without } from './tree-ops';

const UNDO_MS = 6000;

interface Asking {
  title: string;
  fields: Field[];
  changes: (values: Record<string, string>) => Change[];
}

type TreePage = RevisionPage & { description?: string };

export function EditPageTree({ pages, currentPageId }: { pages: TreePage[]; currentPageId?: string }) {
  const session = useEditSession();
  const { spaceId, number } = session;
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [deleting, setDeleting] = useState<TreePage | null>(null);
  const deleteTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const dragged = useRef<string | null>(null);

  const run = async (changes: Change[]) => {
    setError(null);
    return session.runTree(changes, setError);
  };

  const commitDelete = (page: TreePage) => {
    clearTimeout(deleteTimer.current);
    setDeleting(null);
    void run([{ operation: 'delete_page', page: page.id }]);
  };
  // Leaving the editor before the undo expires still deletes: it was asked for.
  const onLeave = useRef<() => void>(() => undefined);
  onLeave.current = () => {
    if (deleting) commitDelete(deleting);
  };
  useEffect(() => () => onLeave.current(), []);

  const startDelete = (page: TreePage) => {
    if (deleting) commitDelete(deleting);
    setDeleting(page);
    deleteTimer.current = setTimeout(() => commitDelete(page), UNDO_MS);
    // Off the page that goes, to another of the change request (not `…/edit`, another screen, which
    // would unmount this tree and so send the deletion before its undo expires).
    if (page.id === currentPageId) {
      const next = firstDocument(without(pages, page.id));
      if (next)
        void navigate({
          to: '/s/$spaceId/~/changes/$number/edit/$pageId',
          params: { spaceId, number, pageId: next.id },
        });
    }
  };
  const undoDelete = () => {
    clearTimeout(deleteTimer.current);
    setDeleting(null);
  };

  const newPage = async () => {
    const answer = await run([{ operation: 'insert_page', title: 'Untitled', document: { markdown: '' } }]);
    const created = answer?.changes?.find((c) => c.object === 'created_page')?.page;
    const pageId = typeof created === 'string' ? created : created?.id;
    if (pageId)
      void navigate({ to: '/s/$spaceId/~/changes/$number/edit/$pageId', params: { spaceId, number, pageId } });
  };

  const act = (page: TreePage, action: string) => {
    const field = (name: string, label: string, value = '', maxLength = 255): Field => ({
      name,
      label,
      value,
      maxLength,
    });
    if (action === 'rename')
      setAsking({
        title: `Rename “${page.title}”`,
        fields: [{ ...field('title', 'Title', page.title), required: true }],
        changes: (v) => [{ operation: 'update_page', page: page.id, title: v.title ?? '' }],
      });
    else if (action === 'emoji')
      setAsking({
        title: `Emoji of “${page.title}”`,
        fields: [field('emoji', 'Emoji (empty for none)', page.emoji, 50)],
        changes: (v) => [{ operation: 'update_page', page: page.id, emoji: v.emoji ?? '' }],
      });
    else if (action === 'description')
      setAsking({
        title: `Description of “${page.title}”`,
        fields: [field('description', 'Description', page.description, 1000)],
        changes: (v) => [{ operation: 'update_page', page: page.id, description: v.description ?? '' }],
      });
    else if (action === 'delete') startDelete(page);
    else {
      const change = moveStep(pages, page.id, action as MoveKind);
      if (change) void run([change]);
    }
  };

  const shown = deleting ? without(pages, deleting.id) : pages;
  return (
    <nav className="page-tree edit-tree" aria-label="Pages of the change request">
      <div className="tree-actions">
        <button type="button" onClick={() => void newPage()}>
          New page
        </button>
        <button
          type="button"
          onClick={() =>
            setAsking({
              title: 'New group',
              fields: [{ name: 'title', label: 'Title', required: true, maxLength: 255 }],
              changes: (v) => [{ operation: 'insert_page', type: 'group', title: v.title ?? '' }],
            })
          }
        >
          New group
        </button>
        <button
          type="button"
          onClick={() =>
            setAsking({
              title: 'New link',
              fields: [
                { name: 'title', label: 'Title', required: true, maxLength: 255 },
                { name: 'url', label: 'Address', type: 'url', required: true },
              ],
              changes: (v) => [
                {
                  operation: 'insert_page',
                  type: 'link',
                  title: v.title ?? '',
                  target: { kind: 'url', url: v.url ?? '' },
                },
              ],
            })
          }
        >
          New link
        </button>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <TreeList
        pages={shown}
        currentPageId={currentPageId}
        onAct={act}
        onDragStart={(id) => {
          dragged.current = id;
        }}
        onDrop={(targetId) => {
          const id = dragged.current;
          dragged.current = null;
          const change = id ? moveBefore(pages, id, targetId) : null;
          if (change) void run([change]);
        }}
      />
      {deleting ? (
        <div className="toast" role="status">
          Deleted “{deleting.title}”.{' '}
          <button type="button" onClick={undoDelete}>
            Undo
          </button>
        </div>
      ) : null}
      {asking ? (
        <FieldsDialog
          title={asking.title}
          fields={asking.fields}
          onClose={() => setAsking(null)}
          onSave={(values) => {
            setAsking(null);
            void run(asking.changes(values));
          }}
        />
      ) : null}
    </nav>
  );
}

const ACTIONS: [string, string][] = [
  ['rename', 'Rename…'],
  ['emoji', 'Emoji…'],
  ['description', 'Description…'],
  ['up', 'Move up'],
  ['down', 'Move down'],
  ['indent', 'Indent'],
  ['outdent', 'Outdent'],
  ['delete', 'Delete'],
];

/** The keys that open a menu from its button (as Radix's trigger reads them). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * "Actions for {title}": a plain button until it is first used, then Radix's menu, opened at once. A
 * Radix menu per row made a tree of a few hundred pages slow to show (its providers, ids, refs and
 * popper for every row); used, the button is replaced by the menu's own trigger, which gets the
 * focus back when the menu closes.
 */
function RowMenu({ page, onAct }: { page: TreePage; onAct: (page: TreePage, action: string) => void }) {
  const [open, setOpen] = useState<boolean | null>(null);
  const label = `Actions for ${page.title}`;
  if (open === null)
    return (
      <button
        type="button"
        className="tree-menu"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded="false"
        onPointerDown={(event) => {
          if (event.button === 0 && !event.ctrlKey) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        onKeyDown={(event) => {
          if (OPENING_KEYS.has(event.key)) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        onClick={() => setOpen(true)}
      >
        ⋯
      </button>
    );
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger className="tree-menu" aria-label={label}>
        ⋯
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          {ACTIONS.map(([action, text]) => (
            <DropdownMenu.Item key={action} className="menu-item" onSelect={() => onAct(page, action)}>
              {text}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * A page's link in the tree: a plain anchor whose click navigates in the app. The router's `<Link>`
 * builds and matches its location and subscribes to the router's state for each row: a few hundred
 * of them were a good part of the editor's first render (the link opens the editor's own route,
 * whose chunk is loaded: nothing to preload).
 */
function PageLink({ page, current, children }: { page: TreePage; current: boolean; children: ReactNode }) {
  const { spaceId, number } = useEditSession();
  const navigate = useNavigate();
  const params = { spaceId, number, pageId: page.id };
  const path = `/s/${encodeURIComponent(spaceId)}/~/changes/${encodeURIComponent(number)}/edit/${encodeURIComponent(page.id)}`;
  return (
    <a
      href={`${basePath}${path}`}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        // A new tab or window (a modifier, another button): the browser's own.
        const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
        if (event.defaultPrevented || event.button !== 0 || modified) return;
        event.preventDefault();
        void navigate({ to: '/s/$spaceId/~/changes/$number/edit/$pageId', params });
      }}
    >
      {children}
    </a>
  );
}

function TreeList({
  pages,
  currentPageId,
  onAct,
  onDragStart,
  onDrop,
}: {
  pages: TreePage[];
  currentPageId?: string;
  onAct: (page: TreePage, action: string) => void;
  onDragStart: (id: string) => void;
  onDrop: (targetId: string) => void;
}) {
  if (pages.length === 0) return null;
  return (
    <ul className="tree">
      {pages.map((page) => (
        <li
          key={page.id}
          draggable
          onDragStart={(event) => {
            event.stopPropagation();
            event.dataTransfer.setData('text/plain', page.id);
            onDragStart(page.id);
          }}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            event.stopPropagation();
            onDrop(page.id);
          }}
        >
          <span className="tree-row">
            {page.type === 'document' ? (
              <PageLink page={page} current={page.id === currentPageId}>
                {page.emoji ? <span aria-hidden="true">{page.emoji} </span> : null}
                {page.title}
              </PageLink>
            ) : (
              <span className={page.type === 'group' ? 'group-title' : undefined}>{page.title}</span>
            )}
            <RowMenu page={page} onAct={onAct} />
          </span>
          <TreeList
            pages={page.pages ?? []}
            currentPageId={currentPageId}
            onAct={onAct}
            onDragStart={onDragStart}
            onDrop={onDrop}
          />
        </li>
      ))}
    </ul>
  );
}
