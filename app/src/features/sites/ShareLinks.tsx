/**
 * A site's share links (site admins only: the links carry their keys): create one by name, copy its
 * address, revoke it (deleted: the address stops opening the site).
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useCopy } from '../controls/useCopy';
import { ApiErrorText } from '../layout/ApiErrorText';
import { ConfirmButton } from '../layout/ConfirmButton';
import { shareLinksQuery, useCreateShareLink, useRevokeShareLink } from './queries';
import type { ShareLink } from './types';

export function ShareLinks({ organizationId, siteId }: { organizationId: string; siteId: string }) {
  const { data: links } = useSuspenseQuery(shareLinksQuery(organizationId, siteId));
  const create = useCreateShareLink(organizationId, siteId);
  const revoke = useRevokeShareLink(organizationId, siteId);
  const [name, setName] = useState('');
  const nameId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(name.trim(), { onSuccess: () => setName('') });
  }

  return (
    <section aria-labelledby="share-links-heading">
      <h2 id="share-links-heading">Share links</h2>
      <p className="muted">Anyone with a share link reads the site, whatever its visibility.</p>
      <form onSubmit={submit} className="inline-form">
        <label htmlFor={nameId}>Share link name</label>
        <input id={nameId} type="text" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={create.isPending}>
          Create share link
        </button>
        <ApiErrorText error={create.error} />
      </form>
      {links.length === 0 ? (
        <p>No share links.</p>
      ) : (
        <ul className="rows">
          {links.map((link) => (
            <ShareLinkRow key={link.id} link={link} onRevoke={() => revoke.mutate(link.id)} />
          ))}
        </ul>
      )}
      <ApiErrorText error={revoke.error} />
    </section>
  );
}

function ShareLinkRow({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  const { copy, message, failed } = useCopy('address');
  const fieldId = useId();

  return (
    <li className="share-link">
      <label htmlFor={fieldId}>
        {link.name || 'Unnamed link'} {link.active ? null : <span className="muted">(inactive)</span>}
      </label>
      <div className="row">
        <input id={fieldId} type="text" readOnly value={link.urls.published} onFocus={(e) => e.target.select()} />
        <button
          type="button"
          onClick={() => copy(link.urls.published)}
          aria-label={`Copy ${link.name || 'share link'}`}
        >
          Copy
        </button>
        <ConfirmButton
          label={`Revoke ${link.name || 'share link'}`}
          title={`Revoke ${link.name || 'this share link'}?`}
          description="Its address stops opening the site, for everyone who has it."
          confirm="Revoke"
          onConfirm={onRevoke}
        >
          Revoke
        </ConfirmButton>
      </div>
      <p role="status" className={failed ? 'error' : undefined}>
        {message}
      </p>
    </li>
  );
}
