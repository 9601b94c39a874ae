/** `/account`: the signed-in person's sessions and API tokens, each revocable; a new token shown once. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { sessionsQuery, tokensQuery, useCreateToken, useRevokeSession, useRevokeToken } from './queries';

const when = (iso?: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function AccountScreen() {
  return (
    <main className="screen">
      <h1>Your account</h1>
      <Sessions />
      <Tokens />
    </main>
  );
}

function Sessions() {
  const { data: sessions } = useSuspenseQuery(sessionsQuery);
  const revoke = useRevokeSession();
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {revoke.error ? (
        <p role="alert" className="error">
          {revoke.error.message}
        </p>
      ) : null}
      <table>
        <thead>
          <tr>
            <th scope="col">Signed in</th>
            <th scope="col">Last used</th>
            <th scope="col">How</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                {when(session.createdAt)} {session.current ? <strong>(this session)</strong> : null}
              </td>
              <td>{when(session.lastUsedAt)}</td>
              <td>{session.method ?? '—'}</td>
              <td>
                {session.current ? null : (
                  <button type="button" onClick={() => revoke.mutate(session.id)}>
                    Revoke session
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Tokens() {
  const { data: tokens } = useSuspenseQuery(tokensQuery);
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [label, setLabel] = useState('');
  const labelId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ label: label.trim() }, { onSuccess: () => setLabel('') });
  }

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <form onSubmit={submit} className="inline-form">
        <label htmlFor={labelId}>Token label</label>
        <input id={labelId} type="text" required value={label} onChange={(e) => setLabel(e.target.value)} />
        <button type="submit" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {create.error ? (
        <p role="alert" className="error">
          {create.error.message}
        </p>
      ) : null}
      {create.data ? (
        <p role="status" className="new-token">
          Your new token (shown only now): <code>{create.data.token}</code>
        </p>
      ) : null}
      {revoke.error ? (
        <p role="alert" className="error">
          {revoke.error.message}
        </p>
      ) : null}
      {tokens.length === 0 ? (
        <p>No API tokens.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.label}</td>
                <td>{when(token.createdAt)}</td>
                <td>{when(token.lastUsedAt)}</td>
                <td>{when(token.expiresAt)}</td>
                <td>
                  <button type="button" onClick={() => revoke.mutate(token.id)} aria-label={`Revoke ${token.label}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
