/**
 * The "Link" dialog (Mod-k, the toolbar's "Link"): a search field over the titles of the change
 * request's pages, whose results link to a page (the official ref `{kind: 'page', page}`), or an
 * address typed in it (`{kind: 'url', url}`: http, https and mailto only). The selected text gets
 * the link mark; with nothing selected, the page's title (or the address) is inserted, linked.
 */
import { useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useId, useState } from 'react';
import type { RevisionPage } from '../../api/types';
import { Modal } from '../controls/Modal';
import { walkPages } from '../spaces/pages';
import { type LinkRef, looksLikeUrl, urlRef } from './link-ref';
import { crContentQuery } from './queries';
import { useEditSession } from './session';

const MAX_RESULTS = 8;

function applyLink(editor: Editor, ref: LinkRef, label: string) {
  const attrs = { data: { ref } };
  const chain = editor.chain().focus();
  if (editor.state.selection.empty) {
    chain.insertContent({ type: 'text', text: label, marks: [{ type: 'link', attrs }] }).run();
  } else {
    chain.setMark('link', attrs).run();
  }
}

export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const { spaceId, number } = useEditSession();
  const { data: content } = useQuery(crContentQuery(spaceId, number));
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const errorId = useId();
  const q = typed.trim().toLowerCase();
  const pages: RevisionPage[] = content
    ? [...walkPages(content.pages)].filter((p) => p.type !== 'group' && (!q || p.title.toLowerCase().includes(q)))
    : [];
  const url = looksLikeUrl(typed);
  const inLink = editor.isActive('link');

  const chooseUrl = () => {
    const ref = urlRef(typed);
    if ('error' in ref) {
      setError(ref.error);
      return;
    }
    applyLink(editor, ref, ref.url);
    onClose();
  };

  return (
    <Modal open title="Link" onOpenChange={(next) => next || onClose()}>
      <form
        className="link-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          const first = pages[0];
          if (url || !first) chooseUrl();
          else {
            applyLink(editor, { kind: 'page', page: first.id }, first.title);
            onClose();
          }
        }}
      >
        <label htmlFor={fieldId}>Search pages or type an address</label>
        <input
          id={fieldId}
          type="search"
          value={typed}
          autoComplete="off"
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setTyped(event.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p id={errorId} role="alert" className="error">
            {error}
          </p>
        ) : null}
        {url ? (
          <button type="button" onClick={chooseUrl}>
            Link to {typed.trim()}
          </button>
        ) : (
          <ul className="link-results" aria-label="Pages">
            {pages.slice(0, MAX_RESULTS).map((page) => (
              <li key={page.id}>
                <button
                  type="button"
                  onClick={() => {
                    applyLink(editor, { kind: 'page', page: page.id }, page.title);
                    onClose();
                  }}
                >
                  {page.title || 'Untitled'}
                </button>
              </li>
            ))}
            {pages.length === 0 ? <li className="muted">No page matches</li> : null}
          </ul>
        )}
        <div className="actions">
          {inLink ? (
            <button
              type="button"
              onClick={() => {
                editor.chain().focus().extendMarkRange('link').unsetMark('link').run();
                onClose();
              }}
            >
              Remove link
            </button>
          ) : null}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
