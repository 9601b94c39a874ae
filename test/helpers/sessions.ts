/** Signing in through a real listening server with `fetch`, and reading the session cookie. */
import { hashPassword, writePasswordHash } from '../../src/auth/passwords.js';
import type { Db } from '../../src/db/database.js';

export const PASSWORD = 'correct horse battery';

/** Gives `userId` the password {@link PASSWORD} (or `password`). */
export async function givePassword(db: Db, userId: string, password = PASSWORD): Promise<void> {
  await writePasswordHash(db, userId, await hashPassword(password));
}

/** The `bindery_session` Set-Cookie line of a response, or undefined. */
export function sessionSetCookie(res: Response): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith('bindery_session='));
}

/** `bindery_session=<secret>` of a response's Set-Cookie (for a Cookie header). */
export function sessionCookie(res: Response): string {
  const line = sessionSetCookie(res);
  if (!line) throw new Error(`no session cookie (status ${res.status})`);
  return line.split(';')[0] as string;
}

export interface Browser {
  cookie: string;
  csrfToken: string;
  /** fetch with the cookie (and, on unsafe methods, the CSRF token unless `headers` say otherwise). */
  fetch(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

export async function login(
  base: string,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
    redirect: 'manual',
  });
}

/** Signs in and reads the session's CSRF token, as the web app does. */
export async function signIn(base: string, email: string, password = PASSWORD): Promise<Browser> {
  const res = await login(base, email, password);
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = sessionCookie(res);
  const session = await fetch(`${base}/auth/session`, { headers: { cookie } });
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  return {
    cookie,
    csrfToken,
    fetch: (path, init = {}) => {
      const method = init.method ?? 'GET';
      const headers: Record<string, string> = { cookie };
      if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        redirect: 'manual',
      });
    },
  };
}
