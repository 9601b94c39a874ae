/**
 * The sign-in pages the server serves until the web app takes them over: `/auth/login` and
 * `/auth/reset`, plain HTML forms that work without JavaScript (and the short pages answering
 * them). No script at all; the Content-Security-Policy allows only their own style and posting
 * forms to this server.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { htmlPage } from '../pages/html.js';

const STYLE = [
  'body { font: 16px/1.5 system-ui, sans-serif; max-width: 24rem; margin: 3rem auto; padding: 0 1rem; color: #1b1b1b; }',
  'label { display: block; margin-top: 1rem; font-weight: 600; }',
  'input { display: block; width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #555; border-radius: 4px; }',
  'button { margin-top: 1.5rem; padding: .5rem 1.25rem; font: inherit; background: #1a4fbf; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }',
  'button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #e8a400; outline-offset: 2px; }',
  '.error { color: #a00000; font-weight: 600; }',
  'a { color: #1a4fbf; }',
].join('\n');

export const PAGE_CSP = [
  "default-src 'none'",
  // The pages' empty icon (`<link rel="icon" href="data:,">`, so that no /favicon.ico is asked for).
  'img-src data:',
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function errorBlock(error: string | undefined): string {
  return error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>\n` : '';
}

/**
 * Sends `html` as one of these pages, never cached (they carry tokens and per-user answers). The
 * referrer policy gives other sites nothing of the address (a reset token is in it) but keeps the
 * origin: under `no-referrer` a browser sends `Origin: null` with the page's own form posts, which
 * the origin check then refuses.
 */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'strict-origin')
    .send(html);
}

export interface SsoLink {
  /** Shown as "Sign in with <label>". */
  label: string;
  href: string;
}

export function loginPage(options: {
  base: string;
  returnTo: string;
  email?: string;
  error?: string;
  sso?: SsoLink[];
}): string {
  const described = options.error ? ' aria-describedby="form-error"' : '';
  const sso = (options.sso ?? [])
    .map((link) => `<p><a href="${escapeHtml(link.href)}">Sign in with ${escapeHtml(link.label)}</a></p>`)
    .join('\n');
  return htmlPage(
    'Sign in · Bindery',
    STYLE,
    `<main>
<h1>Sign in</h1>
${errorBlock(options.error)}<form method="post" action="${escapeHtml(options.base)}/auth/login">
<input type="hidden" name="returnTo" value="${escapeHtml(options.returnTo)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">Sign in</button>
</form>
${sso}
<p><a href="${escapeHtml(options.base)}/auth/reset">Forgot your password?</a></p>
</main>`,
  );
}

/** The reset page: with a token, the form that sets the password; without, the form that asks for a link. */
export function resetPage(options: { base: string; token?: string; error?: string }): string {
  const described = options.error ? ' aria-describedby="form-error"' : '';
  if (!options.token) {
    return htmlPage(
      'Reset your password · Bindery',
      STYLE,
      `<main>
<h1>Reset your password</h1>
${errorBlock(options.error)}<form method="post" action="${escapeHtml(options.base)}/auth/password-reset">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${described}>
<button type="submit">Send a reset link</button>
</form>
</main>`,
    );
  }
  return htmlPage(
    'Set a new password · Bindery',
    STYLE,
    `<main>
<h1>Set a new password</h1>
${errorBlock(options.error)}<form method="post" action="${escapeHtml(options.base)}/auth/password-reset/confirm">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required aria-describedby="password-rule">
<p id="password-rule">At least 10 characters.</p>
<button type="submit">Set password</button>
</form>
</main>`,
  );
}

/** A short page answering a form: a heading, a sentence, and where to go next. */
export function messagePage(title: string, text: string, link?: { href: string; label: string }): string {
  return htmlPage(
    `${escapeHtml(title)} · Bindery`,
    STYLE,
    `<main>
<h1>${escapeHtml(title)}</h1>
<p role="status">${escapeHtml(text)}</p>
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}
</main>`,
  );
}
