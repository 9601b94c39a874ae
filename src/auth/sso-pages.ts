/**
 * What the single sign-on routes share: where a sign-in may send the person afterwards (a path of
 * this server only), the small page a failed sign-in answers with (a 4xx, never a 500), and the
 * sealed short-lived cookie that carries a sign-in's state between its start and the provider's answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decryptSecret, encryptSecret, secretsKey } from '../core/secrets.js';
import type { App } from '../http/app.js';
import { cookieValue, setCookieHeader } from '../lib/cookies.js';
import { basePath, htmlPage } from '../pages/html.js';

/** How long a sign-in may take at the provider. */
export const SIGN_IN_WINDOW_MS = 10 * 60_000;

/**
 * The same-origin path `returnTo` names (a path, or an absolute URL on `PUBLIC_URL`'s origin), or
 * null when it leads elsewhere (another origin, `//host`, a backslash trick, a control character).
 * Absent: the server's root.
 */
export function sameOriginPath(app: App, returnTo: string | undefined): string | null {
  if (returnTo === undefined || returnTo === '') return `${basePath(app)}/`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (returnTo.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(returnTo)) return null;
  const origin = new URL(app.config.publicUrl).origin;
  let url: URL;
  try {
    url = new URL(returnTo, `${origin}/`);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (!returnTo.startsWith('/') && !returnTo.startsWith(`${origin}/`)) return null;
  if (returnTo.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Answers a failed sign-in: a small page saying why, with a way back. */
export function signInFailed(app: App, reply: FastifyReply, status: number, message: string) {
  const page = htmlPage(
    'Sign-in failed',
    'body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }',
    `<main>\n<h1>Sign-in failed</h1>\n<p>${escapeHtml(message)}</p>\n<p><a href="${escapeHtml(basePath(app))}/">Back</a></p>\n</main>`,
  );
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
}

const secure = (app: App) => app.config.publicUrl.startsWith('https:');

/** Sets cookie `name` to `state`, sealed (AES-GCM with the server's secrets key), for the sign-in window. */
export async function setStateCookie(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  state: object,
) {
  const key = await secretsKey(app.db, app.config.secretsKey, request.log);
  const sealed = encryptSecret(key, JSON.stringify({ ...state, exp: Date.now() + SIGN_IN_WINDOW_MS }), name);
  reply.header('set-cookie', setCookieHeader(name, sealed, { maxAge: SIGN_IN_WINDOW_MS / 1000, secure: secure(app) }));
}

/** The state cookie `name` sealed, if it came with the request, is ours and is not past its window. */
export async function readStateCookie<T>(app: App, request: FastifyRequest, name: string): Promise<T | null> {
  const sealed = cookieValue(request.headers.cookie, name);
  if (!sealed) return null;
  try {
    const key = await secretsKey(app.db, app.config.secretsKey, request.log);
    const state = JSON.parse(decryptSecret(key, sealed, name)) as T & { exp: number };
    return state.exp > Date.now() ? state : null;
  } catch {
    return null;
  }
}

/** Forgets the state cookie `name` (a sign-in's state is used once). */
export function clearStateCookie(app: App, reply: FastifyReply, name: string) {
  reply.header('set-cookie', setCookieHeader(name, '', { maxAge: 0, secure: secure(app) }));
}
