/**
 * `~feedback`: the "Was this page helpful?" control of a published site (customization
 * `feedback.enabled`). A plain form POST records a `page_post_feedback` event and sends the reader
 * back to the page (303, `#feedback-thanks`, which the stylesheet shows); the site script sends the
 * same form with `Accept: application/json` (204), then an optional comment as
 * `page_post_feedback_comment`. Events go through the same service function as
 * `trackEventsInSiteById`, with the system actor: visitors are not users.
 *
 * The caller has already passed the site's access decision (share links, visitor tokens). Posts
 * must come from the site's own pages: the `Origin` (or, without it, the `Referer`) must be the
 * site's origin, so another site cannot make a visitor's browser post feedback.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../core/service.js';
import { recordSiteEvents } from '../insights/service.js';
import { ApiError } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { siteSpaceCustomization } from '../sites/customization.js';
import { cookieName, parseCookies, setCookie } from './access.js';
import type { Address } from './address.js';
import type { SiteReader } from './reader.js';

/** The largest form accepted (a page path, a rating and a 512-character comment fit well within). */
export const FEEDBACK_BODY_LIMIT = 8 * 1024;
const RATINGS = new Set(['good', 'ok', 'bad']);
const COMMENT_MAX = 512;
const YEAR = 365 * 24 * 3600;

const plain = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(message);

/** Whether the request came from a page of `origin` (Origin, or Referer when a browser sends no Origin). */
function sameOrigin(request: FastifyRequest, origin: string): boolean {
  const header = request.headers.origin;
  if (typeof header === 'string' && header !== 'null') return header === origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return false;
  try {
    return new URL(referer).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The form body: parsed by the route's own parser (`/sites/…`), or read here from the stream when
 * the request was answered before routing (a site on its own host).
 */
async function readForm(request: FastifyRequest): Promise<URLSearchParams | null> {
  if (typeof request.body === 'string') return new URLSearchParams(request.body);
  const type = String(request.headers['content-type'] ?? '');
  if (!type.startsWith('application/x-www-form-urlencoded')) return null;
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > FEEDBACK_BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function feedbackRoute(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  reader: SiteReader,
  address: Address,
): Promise<FastifyReply> {
  if (!sameOrigin(request, address.origin))
    return plain(reply, 403, 'Feedback is only accepted from the site’s pages.');
  const form = await readForm(request);
  const rating = form?.get('rating') ?? '';
  const comment = form?.get('comment') ?? null;
  const pagePath = form?.get('page');
  if (
    !form ||
    !RATINGS.has(rating) ||
    typeof pagePath !== 'string' ||
    (comment !== null && (comment.trim() === '' || comment.length > COMMENT_MAX))
  ) {
    return plain(reply, 400, 'Expected a rating (good, ok or bad), the page, and at most a 512-character comment.');
  }
  let segments: string[];
  try {
    segments = pagePath
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return plain(reply, 404, 'No such page.');
  }
  const place = await reader.resolve(segments);
  if (place.kind !== 'page' || place.markdown) return plain(reply, 404, 'No such page.');
  const { content, entry } = place;
  if (!siteSpaceCustomization(reader.model.site, content.siteSpace).feedback.enabled) {
    return plain(reply, 404, 'This site does not collect feedback.');
  }

  // A session cookie groups one visit's events; the visitor cookie only where the site allows it.
  const cookies = parseCookies(request.headers.cookie);
  const siteId = reader.model.site.id;
  const set: string[] = [];
  const kept = (name: string, maxAge: number) => {
    const value = cookies[name] ?? newId();
    if (!cookies[name]) set.push(setCookie({ name, value, maxAge }, address.basePath, address.secure));
    return value;
  };
  const sessionId = kept(`bindery_session_${siteId}`, 30 * 60);
  const tracking = siteSpaceCustomization(reader.model.site, content.siteSpace).insights.trackingCookie;
  const visitorId = tracking ? kept(`bindery_visitor_${siteId}`, YEAR) : null;

  const path = reader.pagePath(content, entry);
  try {
    await recordSiteEvents(ctx, reader.model.site, [
      {
        type: comment === null ? 'page_post_feedback' : 'page_post_feedback_comment',
        session: { sessionId, visitorId },
        location: {
          url: `${address.origin}${reader.href(path)}`,
          displayContext: 'site',
          siteSection: content.section?.id ?? null,
          siteSpace: content.siteSpace.id,
          // The share link a share-link site was opened with (access has checked it is active).
          siteShareKey:
            reader.model.site.visibility === 'share-link' ? (cookies[cookieName('share', siteId)] ?? null) : null,
          space: content.space.id,
          revision: content.space.revision_id,
          page: entry.page.id,
        },
        feedback: comment === null ? { rating: rating as 'good' } : { rating: rating as 'good', comment },
      },
    ]);
  } catch (error) {
    if (error instanceof ApiError) return plain(reply, error.statusCode, error.message);
    throw error;
  }
  if (set.length > 0) reply.header('set-cookie', set);
  reply.header('cache-control', 'no-store');
  if (String(request.headers.accept ?? '').includes('application/json')) return reply.code(204).send();
  return reply.redirect(`${reader.href(path)}#feedback-thanks`, 303);
}
