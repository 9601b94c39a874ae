/**
 * The change request's comments in its editor: a marker beside each block that has open comments
 * (one at the top for those on the page as a whole, or on a block no longer there), which opens
 * them; and, while text is selected, a "Comment" button (also Ctrl+Alt+M) that posts a comment on
 * the page and the block holding the selection, quoting it (the official Comment has no range).
 * A block without a `key` gets one first, kept out of the undo history (comments point at keys).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor as TiptapEditor } from '@tiptap/core';
import { type FormEvent, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { commentsByBlock, commentText, markerLabel, newBlockKey, selectionCommentBody } from './comment-targets';
import { pageCommentsQuery, postPageComment } from './queries';

/** A block key with comments, and the marker it shows under ('' the page's: its block is gone). */
interface Placed {
  key: string;
  anchor: string;
  top: number;
}

/** The document position and key of the top-level block at `pos` (no key yet: null). */
function blockAt(editor: TiptapEditor, pos: number): { at: number; key: string | null } | null {
  const $pos = editor.state.doc.resolve(pos);
  if ($pos.depth === 0) {
    const node = editor.state.doc.nodeAt(pos);
    return node ? { at: pos, key: typeof node.attrs.key === 'string' ? node.attrs.key : null } : null;
  }
  const node = $pos.node(1);
  return { at: $pos.before(1), key: typeof node.attrs.key === 'string' ? node.attrs.key : null };
}

/** Gives the block at `at` a key (not undoable: a comment may point at it). */
function keyBlock(editor: TiptapEditor, at: number): string {
  const key = newBlockKey();
  const node = editor.state.doc.nodeAt(at);
  if (node && 'key' in node.attrs) {
    editor.view.dispatch(
      editor.state.tr.setNodeMarkup(at, undefined, { ...node.attrs, key }).setMeta('addToHistory', false),
    );
  }
  return key;
}

export function CommentLayer({
  editor,
  spaceId,
  number,
  pageId,
}: {
  editor: TiptapEditor;
  spaceId: string;
  number: string;
  pageId: string;
}) {
  const client = useQueryClient();
  const { data: comments } = useQuery(pageCommentsQuery(spaceId, number, pageId));
  const groups = useMemo(() => commentsByBlock(comments ?? [], pageId), [comments, pageId]);
  const layer = useRef<HTMLDivElement>(null);
  const [placed, setPlaced] = useState<Placed[]>([]);
  const [openMarker, setOpenMarker] = useState<string | null>(null);
  const [selection, setSelection] = useState<{ from: number; to: number; top: number } | null>(null);
  const [form, setForm] = useState<{ from: number; to: number; top: number; text: string } | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [posting, setPosting] = useState(false);
  const formId = useId();

  // Where each block with comments is, relative to the layer; measured again after edits (once a frame).
  const measure = useCallback(() => {
    // Nothing to place: no measuring (it lays out the whole page at once, a long one in a long task).
    if (groups.size === 0) return setPlaced((current) => (current.length === 0 ? current : []));
    const box = layer.current?.getBoundingClientRect();
    // Not before the view is mounted (TipTap's `create`, which measures again).
    if (!box || editor.isDestroyed || !editor.isInitialized) return;
    const positions = new Map<string, number>();
    editor.state.doc.descendants((node, pos) => {
      const key = node.attrs.key;
      if (typeof key === 'string' && groups.has(key)) positions.set(key, pos);
      return node.isBlock;
    });
    const next: Placed[] = [];
    for (const key of groups.keys()) {
      const pos = key ? positions.get(key) : undefined;
      const dom = pos === undefined ? null : (editor.view.nodeDOM(pos) as HTMLElement | null);
      next.push({
        key,
        anchor: pos === undefined ? '' : key,
        top: dom ? dom.getBoundingClientRect().top - box.top : 0,
      });
    }
    // The same places: no new render (measuring runs after every edit).
    setPlaced((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
  }, [editor, groups]);
  useLayoutEffect(() => {
    measure();
    if (groups.size === 0) return;
    let frame = 0;
    const later = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    // Every change of the document, also the blocks appended as the page opens (fill.ts: not an
    // `update`, which would mark the page unsaved).
    const changed = ({ transaction }: { transaction: { docChanged: boolean } }) => {
      if (transaction.docChanged) later();
    };
    editor.on('transaction', changed);
    editor.on('create', later);
    window.addEventListener('resize', later);
    return () => {
      cancelAnimationFrame(frame);
      editor.off('transaction', changed);
      editor.off('create', later);
      window.removeEventListener('resize', later);
    };
  }, [editor, groups, measure]);

  // The "Comment" button follows a non-empty selection.
  useEffect(() => {
    const follow = () => {
      const { from, to, empty } = editor.state.selection;
      const box = layer.current?.getBoundingClientRect();
      if (empty || !box || !editor.state.doc.textBetween(from, to, ' ').trim()) return setSelection(null);
      setSelection({ from, to, top: editor.view.coordsAtPos(to).bottom - box.top + 4 });
    };
    const shortcut = (event: KeyboardEvent) => {
      if (event.ctrlKey && event.altKey && event.key.toLowerCase() === 'm') {
        event.preventDefault();
        follow();
        const { from, to, empty } = editor.state.selection;
        const box = layer.current?.getBoundingClientRect();
        if (!empty && box) setForm({ from, to, top: editor.view.coordsAtPos(to).bottom - box.top + 4, text: '' });
      }
    };
    // On the editor's box, not on its view: this runs before TipTap mounts the view.
    const around = layer.current?.parentElement;
    editor.on('selectionUpdate', follow);
    around?.addEventListener('keydown', shortcut);
    return () => {
      editor.off('selectionUpdate', follow);
      around?.removeEventListener('keydown', shortcut);
    };
  }, [editor]);

  const post = async (event: FormEvent) => {
    event.preventDefault();
    if (!form || !draft.trim()) return setError('Write a comment first');
    const block = blockAt(editor, form.from);
    const node = block ? (block.key ?? keyBlock(editor, block.at)) : undefined;
    const quoted = editor.state.doc.textBetween(form.from, Math.min(form.to, editor.state.doc.content.size), ' ');
    setPosting(true);
    try {
      await postPageComment(spaceId, number, {
        page: pageId,
        node,
        markdown: selectionCommentBody(quoted, draft),
      });
      setForm(null);
      setDraft('');
      setError(null);
      await client.invalidateQueries({ queryKey: pageCommentsQuery(spaceId, number, pageId).queryKey.slice(0, 6) });
      editor.commands.focus();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPosting(false);
    }
  };

  return (
    <div className="comment-layer" ref={layer}>
      {selection && !form ? (
        <button
          type="button"
          className="comment-selection"
          style={{ top: selection.top }}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setForm({ ...selection, text: '' })}
        >
          Comment
        </button>
      ) : null}
      {form ? (
        <form
          className="editor-comment-form"
          style={{ top: form.top }}
          aria-label="Comment on the selection"
          onSubmit={post}
        >
          <label htmlFor={formId}>Comment</label>
          {/* biome-ignore lint/a11y/noAutofocus: the form opens on the person's request, to type in */}
          <textarea id={formId} value={draft} autoFocus rows={3} onChange={(e) => setDraft(e.target.value)} />
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" disabled={posting}>
              Post comment
            </button>
            <button
              type="button"
              onClick={() => {
                setForm(null);
                setError(null);
                editor.commands.focus();
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {mergePlaced(placed).map(({ key, top, keys }) => {
        const thread = keys.flatMap((k) => groups.get(k) ?? []);
        return (
          <div key={key || 'page'} className="comment-marker" style={{ top }}>
            <button
              type="button"
              aria-expanded={openMarker === key}
              aria-label={markerLabel(thread.length, key === '')}
              onClick={() => setOpenMarker(openMarker === key ? null : key)}
            >
              💬 {thread.length}
            </button>
            {openMarker === key ? (
              <ul className="comment-thread">
                {thread.map((comment) => (
                  <li key={comment.id}>
                    <strong>{comment.postedBy?.displayName ?? 'Someone'}</strong>
                    <p>{commentText(comment)}</p>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** Markers of blocks not on the page join the page's marker at the top. */
function mergePlaced(placed: Placed[]): { key: string; top: number; keys: string[] }[] {
  const merged = new Map<string, { key: string; top: number; keys: string[] }>();
  for (const p of placed) {
    const at = merged.get(p.anchor);
    if (at) at.keys.push(p.key);
    else merged.set(p.anchor, { key: p.anchor, top: p.anchor ? p.top : 0, keys: [p.key] });
  }
  return [...merged.values()];
}
