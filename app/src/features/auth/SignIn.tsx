/** The sign-in screen: email and password, with the API's message beside the form when it refuses. */
import { type FormEvent, useId, useState } from 'react';
import { basePath } from '../../base';
import { useAuthStatus, useSignIn } from './session';

export function SignIn() {
  const signIn = useSignIn();
  const { sso } = useAuthStatus();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate({ email, password });
  }

  const returnTo = `${window.location.pathname.slice(basePath.length)}${window.location.search}`;
  return (
    <main className="sign-in">
      <h1>Sign in to Bindery</h1>
      <form onSubmit={submit} aria-describedby={signIn.error ? errorId : undefined}>
        <label>
          Email
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {signIn.error ? (
          <p id={errorId} role="alert" className="error">
            {signIn.error.message}
          </p>
        ) : null}
        <button type="submit" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
      {sso.map((provider) => (
        <p key={provider.loginUrl}>
          <a href={`${provider.loginUrl}?returnTo=${encodeURIComponent(`${basePath}${returnTo}`)}`}>
            Sign in with {provider.name}
          </a>
        </p>
      ))}
      <p>
        <a href={`${basePath}/auth/login?returnTo=${encodeURIComponent(`${basePath}${returnTo}`)}`}>
          Forgot your password?
        </a>
      </p>
      <p className="muted">
        <a href={`${basePath}/docs`}>API reference</a>
      </p>
    </main>
  );
}
