/**
 * One page of the change request being edited: its title ("Page title") and body, saved about
 * 600 ms after typing stops as one `update_page` batch edit through the session's queue (so with
 * `If-Match`). Leaving with unsaved work asks first (the router's blocker and `beforeunload`);
 * moving to another page of the same change request saves at once instead of asking.
 */
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import type { Editor as TiptapEditor } from '@tiptap/core';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Modal } from '../controls/Modal';
import { AltTextDialog } from './AltTextDialog';
import type { EditorActions } from './actions';
import { CommentLayer } from './CommentLayer';
import { Editor } from './Editor';
import { dropFill, wholeDoc } from './fill';
import { LinkDialog } from './LinkDialog';
import { FileUrls, imageAlt, imagesBlock, setImageAlt, uploadImage } from './media';
import { docToDocument, documentToEditor } from './model';
import { closing, crPageQuery, crPath } from './queries';
import { ConflictError } from './save-queue';
import { useEditSession } from './session';
import { TableTools } from './TableTools';

const SAVE_DELAY_MS = 600;

/**
 * The body, not rendered again when the status line changes: TipTap's useEditor re-applies its
 * options on each render (`setOptions`, which sets the view's state again), which costs a long page
 * time and could put the caret back where ProseMirror last read it, before a move it has not read yet.
 */
const Body = memo(Editor);

/** Whether edits were made after the last one saved. */
const unsaved = (edits: { version: number; saved: number }) => edits.version !== edits.saved;

type Status = 'saved' | 'unsaved' | 'saving' | 'conflict' | 'error';
const STATUS_TEXT: Record<Status, string> = {
  saved: 'All changes saved',
  unsaved: 'Unsaved changes',
  saving: 'Saving…',
  conflict: 'Not saved: someone else saved first',
  error: 'Not saved',
};

export function PageEditor({ pageId }: { pageId: string }) {
  // Only the session's stable parts: its value changes with the conflict state, which must not
  // re-run the effects below (their cleanup saves, which would report the conflict again…).
  const { spaceId, number, organizationId, queue, reportConflict, refreshTree, openPage } = useEditSession();
  const { data: page } = useSuspenseQuery(crPageQuery(spaceId, number, pageId));
  // Closed, the page is dropped from the cache: the next opening reads it again (queries.ts).
  const client = useQueryClient();
  useEffect(() => {
    const { queryKey } = crPageQuery(spaceId, number, pageId);
    return closing(queryKey, () => client.removeQueries({ queryKey, exact: true }));
  }, [client, spaceId, number, pageId]);
  const [title, setTitle] = useState(page.title);
  const [status, setStatus] = useState<Status>('saved');
  const [error, setError] = useState<string | null>(null);
  const editor = useRef<TiptapEditor | null>(null);
  const titleRef = useRef(title);
  const edits = useRef({ version: 0, saved: 0 });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const titleId = useId();
  const [initial] = useState(() => documentToEditor(page.document));
  const [linking, setLinking] = useState(false);
  const [uploading, setUploading] = useState(0);
  /** The file id of the image whose alt text is asked for. */
  const [altFor, setAltFor] = useState<string | null>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const [fileUrls] = useState(() => new FileUrls(`${crPath(spaceId, number)}/content/files`));

  const dirty = () => unsaved(edits.current);

  const save = useCallback(async () => {
    clearTimeout(timer.current);
    const body = editor.current;
    // A destroyed editor's document may no longer be what was typed: never send it.
    if (!body || body.isDestroyed || !unsaved(edits.current)) return;
    const version = edits.current.version;
    const name = titleRef.current.trim();
    setStatus('saving');
    try {
      await queue.run([
        {
          operation: 'update_page',
          page: pageId,
          ...(name ? { title: name } : {}),
          document: { document: docToDocument(wholeDoc(body)) },
        },
      ]);
      edits.current.saved = Math.max(edits.current.saved, version);
      setError(null);
      setStatus(unsaved(edits.current) ? 'unsaved' : 'saved');
      if (name !== page.title) refreshTree();
    } catch (failure) {
      if (failure instanceof ConflictError) {
        setStatus('conflict');
        reportConflict({ retry: [] });
      } else {
        setStatus('error');
        setError(failure instanceof Error ? failure.message : String(failure));
      }
    }
  }, [queue, reportConflict, refreshTree, pageId, page.title]);

  // `changed` keeps one identity while `save` changes with what it closes over (the page's title
  // after each refetch): a new `changed` would render the memoized body again, and TipTap, given its
  // options again, could put back a caret ProseMirror had not read yet (keys then landed elsewhere).
  const latestSave = useRef(save);
  latestSave.current = save;
  const changed = useCallback(() => {
    edits.current.version += 1;
    setStatus('unsaved');
    clearTimeout(timer.current);
    // Nothing is sent while a conflict waits for the person's choice.
    if (!queue.stopped) timer.current = setTimeout(() => void latestSave.current(), SAVE_DELAY_MS);
  }, [queue]);

  // The session reaches this page to reload it or save it after a conflict.
  useEffect(() => {
    openPage.current = {
      pageId,
      saveNow: () => void save(),
      title: () => titleRef.current,
      reload: (theirs) => {
        if (editor.current) dropFill(editor.current);
        editor.current?.commands.setContent(documentToEditor(theirs?.document), { emitUpdate: false });
        const theirTitle = theirs?.title ?? titleRef.current;
        titleRef.current = theirTitle;
        setTitle(theirTitle);
        edits.current.saved = edits.current.version;
        setStatus('saved');
      },
    };
    return () => {
      // Leaving the page (to another one of the change request): what is typed is saved now.
      if (unsaved(edits.current) && !queue.stopped) void save();
      openPage.current = null;
    };
  }, [openPage, pageId, save, queue]);

  const blocker = useBlocker({
    shouldBlockFn: ({ next }) => {
      if (!dirty()) return false;
      return !next.pathname.includes(`/~/changes/${number}/edit`);
    },
    enableBeforeUnload: dirty,
    withResolver: true,
  });

  const [ready, setReady] = useState<TiptapEditor | null>(null);
  const onReady = useCallback((created: TiptapEditor) => {
    editor.current = created;
    setReady(created);
  }, []);

  // Each image: uploaded, added to the change request (queued with the saves), then put in the body
  // (which saves the page as any edit does) and its alt text asked for.
  const insertImages = async (files: File[], at: number | null) => {
    for (const file of files) {
      setUploading((n) => n + 1);
      try {
        const inserted = await uploadImage(file, organizationId, queue);
        const fileId = inserted.id;
        fileUrls.set(fileId, inserted.downloadURL);
        const body = editor.current;
        if (!body || body.isDestroyed) return;
        const chain = body.chain().focus();
        (at === null ? chain.insertContent(imagesBlock(fileId)) : chain.insertContentAt(at, imagesBlock(fileId))).run();
        setError(null);
        setAltFor(fileId);
      } catch (failure) {
        if (failure instanceof ConflictError) {
          setStatus('conflict');
          reportConflict({ retry: [] });
        } else setError(failure instanceof Error ? failure.message : String(failure));
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };
  // One object for the editor's whole life (so that the memoized body is not rendered again), calling
  // the latest of these.
  const latestActions = useRef<EditorActions | null>(null);
  const stableActions = useMemo<EditorActions>(
    () => ({
      pickImage: () => latestActions.current?.pickImage(),
      openLink: () => latestActions.current?.openLink(),
      onImages: (files, at) => latestActions.current?.onImages(files, at),
      onError: (message) => latestActions.current?.onError(message),
      fileUrl: async (fileId) => latestActions.current?.fileUrl(fileId),
      editAlt: (fileId) => latestActions.current?.editAlt(fileId),
    }),
    [],
  );
  latestActions.current = {
    pickImage: () => filePicker.current?.click(),
    openLink: () => setLinking(true),
    onImages: (files, at) => void insertImages(files, at),
    onError: setError,
    fileUrl: (fileId) => fileUrls.get(fileId),
    editAlt: setAltFor,
  };

  const command = (run: (e: TiptapEditor) => void) => () => {
    if (editor.current) run(editor.current);
  };

  return (
    <article className="page-editor">
      <div className="editor-status">
        <p role="status" className="muted">
          {STATUS_TEXT[status]}
        </p>
        <button type="button" onClick={command((e) => e.chain().focus().undo().run())}>
          Undo
        </button>
        <button type="button" onClick={command((e) => e.chain().focus().redo().run())}>
          Redo
        </button>
        <button type="button" aria-keyshortcuts="Control+K" onClick={() => setLinking(true)}>
          Link
        </button>
        <button type="button" onClick={() => filePicker.current?.click()}>
          Image
        </button>
        <input
          ref={filePicker}
          type="file"
          accept="image/*"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Image file"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length) void insertImages(files, null);
          }}
        />
        {ready ? <TableTools editor={ready} /> : null}
        {uploading > 0 ? (
          <p role="status" className="muted">
            Uploading the image…
          </p>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <label htmlFor={titleId} className="visually-hidden">
        Page title
      </label>
      <input
        id={titleId}
        className="title-input"
        value={title}
        placeholder="Untitled"
        maxLength={255}
        onChange={(event) => {
          titleRef.current = event.target.value;
          setTitle(event.target.value);
          changed();
        }}
      />
      <div className="commented-editor">
        <Body initial={initial} onChange={changed} onReady={onReady} actions={stableActions} />
        {ready ? <CommentLayer editor={ready} spaceId={spaceId} number={number} pageId={pageId} /> : null}
      </div>
      {linking && editor.current ? <LinkDialog editor={editor.current} onClose={() => setLinking(false)} /> : null}
      {altFor ? (
        <AltTextDialog
          initial={editor.current ? imageAlt(editor.current, altFor) : ''}
          onSave={(alt) => {
            if (editor.current) setImageAlt(editor.current, altFor, alt);
          }}
          onClose={() => {
            setAltFor(null);
            editor.current?.commands.focus();
          }}
        />
      ) : null}
      <Modal
        open={blocker.status === 'blocked'}
        onOpenChange={(next) => next || blocker.reset?.()}
        title="Leave without saving?"
      >
        <p>Your latest changes to this page are not saved yet.</p>
        <div className="actions">
          <button type="button" onClick={() => blocker.reset?.()}>
            Stay
          </button>
          <button type="button" onClick={() => blocker.proceed?.()}>
            Leave
          </button>
        </div>
      </Modal>
    </article>
  );
}
