/**
 * The security headers of every response of a published site, in one place.
 *
 * Pages (HTML) get a Content-Security-Policy under which only Bindery's own scripts run: the site
 * script, a file of the site's origin (`'self'`), and the one inline script, the head script that
 * sets the theme before the first paint, allowed by its hash (pages are cached and shared, so a
 * per-response nonce would not do; the hash never changes while the process runs). No other inline
 * script, no `eval`, no script from elsewhere. Styles allow `'unsafe-inline'`: the page's palette is
 * an inline `<style>` that differs by site, and Shiki colours code with `style` attributes; CSS runs
 * no script, and no text of the content ever becomes CSS (colours are checked as `#rgb`/`#rrggbb`).
 * Images may come from any web address (content images, logos) or be `data:` images (the emoji
 * favicon); requests made by the scripts (search, feedback) and forms go to the site's origin only.
 *
 * Everything else (Markdown, text, XML, JSON, assets, redirects) is no document to run anything in:
 * `default-src 'none'`. Files of the spaces keep their own stricter policy (a sandbox, service.ts).
 * Every response also says `nosniff`, the referrer policy and that only the site's own origin may
 * frame it (`frame-ancestors`, and `X-Frame-Options` for browsers that know only that).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { HEAD_SCRIPT } from './render/script.js';

const hash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

const FRAME_ANCESTORS = "frame-ancestors 'self'";

/** The policy of HTML pages. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' ${hash(HEAD_SCRIPT)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: http: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  FRAME_ANCESTORS,
].join('; ');

/** The policy of every other response. */
export const RESOURCE_CSP = `default-src 'none'; ${FRAME_ANCESTORS}`;

/** The policy of a space's file: also a sandbox, so an HTML or SVG file opened directly runs nothing. */
export const FILE_CSP = `${RESOURCE_CSP}; sandbox`;

const POLICIES = { page: PAGE_CSP, resource: RESOURCE_CSP, file: FILE_CSP };

/** The JavaScript MIME types (WHATWG MIME Sniffing), which a browser runs from a `<script src>`. */
const SCRIPT_TYPE =
  /^\s*(?:application\/(?:x-)?(?:ecma|java)script|text\/(?:x-)?(?:ecma|java)script(?:1\.[0-5])?|text\/(?:jscript|livescript))\s*(?:;|$)/i;

/**
 * The type a space's file is served as: its own, except a script type, which becomes plain text. The
 * page policy allows scripts of the site's origin, and files are served from that origin: with
 * `nosniff`, a file served as text can never be run as a script, even by a page that was made to
 * load it.
 */
export function fileType(contentType: string): string {
  return SCRIPT_TYPE.test(contentType) ? 'text/plain; charset=utf-8' : contentType;
}

/** Sets the security headers of a published response: `page` for an HTML page, `file` for a space's file. */
export function securityHeaders(reply: FastifyReply, kind: keyof typeof POLICIES): FastifyReply {
  return reply
    .header('content-security-policy', POLICIES[kind])
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .header('x-frame-options', 'SAMEORIGIN');
}
