/**
 * Conditional requests (RFC 9110 §13), for every route alike:
 *
 * - Every `GET`/`HEAD` answered 200 with a body carries a strong `ETag`: a hash of the exact bytes
 *   sent. `If-None-Match` naming it (or `*`) turns the answer into a 304 without a body.
 * - `PATCH`, `PUT` and `DELETE` honour `If-Match` (and `If-None-Match`). The current ETag of the
 *   target is the one a `GET` of the same path by the same caller returns now, so it is computed by
 *   running that GET in-process; a path with no GET, or whose GET is not a 200, has no current
 *   representation: `If-Match` fails there. A failed precondition is a 412 with the envelope and the
 *   current `ETag`.
 * - Check and write must not race: every write to a resource (conditional or not, since an
 *   unconditional write landing between another request's check and its write would be overwritten
 *   unseen) runs under the resource's lock (see locks.ts), taken before the check and released when
 *   the handler has finished. The resource is named by the route pattern and its path parameters.
 *   Changes that reach a resource through another path (a `POST …/move`, a write to a child that
 *   shows in the parent's representation) are not serialized with it; they change the ETag, so a
 *   later conditional write still sees them.
 */
import { hash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { ResourceLocks } from '../core/locks.js';
import { ApiError } from '../lib/errors.js';

const WRITE_METHODS = new Set(['PATCH', 'PUT', 'DELETE']);

/**
 * Marks the in-process GETs this module makes: they are not counted by rate limits or metrics.
 * The value is random per process and never leaves it, so a client cannot claim to be one.
 */
const INTERNAL_HEADER = 'x-bindery-internal';
const INTERNAL_SECRET = randomBytes(16).toString('hex');

/** Whether `request` is an in-process GET made to compute a current ETag. */
export function isInternalRequest(request: FastifyRequest): boolean {
  return request.headers[INTERNAL_HEADER] === INTERNAL_SECRET;
}

/** A strong entity tag for `body`: 160 bits of SHA-1 are plenty to tell representations apart. */
function entityTag(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** The entity tags of an `If-Match`/`If-None-Match` value; `'*'` for the wildcard. */
function parseTags(value: string): '*' | { tag: string; weak: boolean }[] {
  if (value.trim() === '*') return '*';
  return [...value.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({ tag: m[2] as string, weak: Boolean(m[1]) }));
}

/** `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`. */
export function noneMatchHits(value: string, current: string): boolean {
  const tags = parseTags(value);
  return tags === '*' || tags.some((t) => t.tag === current);
}

/** `If-Match` uses the strong comparison: a weak tag never matches. */
function matchHits(value: string, current: string | null): boolean {
  if (current === null) return false;
  const tags = parseTags(value);
  return tags === '*' || tags.some((t) => !t.weak && t.tag === current);
}

function preconditionFailed(message: string, current: string | null): ApiError {
  return new ApiError(412, message, current ? { etag: current } : {});
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * ETags and `If-None-Match` on reads (an `onSend` hook: the response cache keeps the ETag it sets, so
 * it comes first); `If-Match` checked with the write under the resource's lock (an `onRoute` hook
 * wrapping every write handler). Owns the locks (closed with the app).
 */
export const conditionalRequests = fp(registerConditionalRequests, {
  name: 'bindery-conditional',
  dependencies: ['bindery-context'],
});

async function registerConditionalRequests(app: FastifyInstance): Promise<void> {
  const locks = new ResourceLocks(app.config.databaseUrl);
  app.addHook('onClose', async () => locks.close());

  // A callback hook: it never waits, so it need not cost a promise per response.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
    if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
      return done(null, payload);
    }
    let tag = reply.getHeader('etag');
    if (typeof tag !== 'string') {
      tag = entityTag(payload);
      reply.header('etag', tag);
    }
    const ifNoneMatch = header(request, 'if-none-match');
    if (ifNoneMatch === undefined || !noneMatchHits(ifNoneMatch, tag)) return done(null, payload);
    // No body, and no Content-Length: a 304 may only carry the length its 200 would have had
    // (RFC 9110, 8.6), and Fastify sets none for a null payload.
    reply.code(304).removeHeader('content-type').removeHeader('content-length');
    done(null, null);
  });

  /** The ETag a GET of `request`'s path gives its caller now; null when there is no 200 to give. */
  async function currentTag(request: FastifyRequest, hasGet: boolean): Promise<string | null> {
    if (!hasGet) return null;
    const path = request.url.split('?')[0] ?? '/';
    const headers: Record<string, string> = { [INTERNAL_HEADER]: INTERNAL_SECRET };
    const authorization = header(request, 'authorization');
    if (authorization) headers.authorization = authorization;
    const response = await app.inject({ method: 'GET', url: path, headers });
    const tag = response.headers.etag;
    return response.statusCode === 200 && typeof tag === 'string' ? tag : null;
  }

  async function checkPreconditions(request: FastifyRequest, hasGet: boolean): Promise<void> {
    const ifMatch = header(request, 'if-match');
    const ifNoneMatch = header(request, 'if-none-match');
    if (ifMatch === undefined && ifNoneMatch === undefined) return;
    const current = await currentTag(request, hasGet);
    if (ifMatch !== undefined && !matchHits(ifMatch, current)) {
      throw preconditionFailed(
        current === null
          ? `If-Match: ${request.url.split('?')[0]} has no current representation to compare with`
          : 'If-Match: the resource has changed since (its current ETag is in the ETag header)',
        current,
      );
    }
    if (ifNoneMatch !== undefined && current !== null && noneMatchHits(ifNoneMatch, current)) {
      throw preconditionFailed('If-None-Match: the resource exists with a matching ETag', current);
    }
  }

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/v1') || !methods.some((m) => WRITE_METHODS.has(m))) return;
    const handler = route.handler as RouteHandlerMethod;
    const pattern = route.url;
    let hasGet: boolean | undefined;
    route.handler = async function locked(this: FastifyInstance, request, reply) {
      // Known once every route is registered; the GET may be declared after the write.
      hasGet ??= app.hasRoute({ method: 'GET', url: pattern });
      const key = `${pattern} ${JSON.stringify(request.params ?? {})}`;
      return locks.run(key, async () => {
        await checkPreconditions(request, hasGet as boolean);
        return handler.call(this, request, reply);
      });
    };
  });
}
