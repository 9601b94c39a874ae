/**
 * The error handlers Fastify calls: thrown {@link ApiError}s, validation failures, unique
 * violations, unknown routes (404, or 405 with `Allow`), the router's and the HTTP parser's own
 * failures — each answered with the one envelope of src/lib/errors.ts.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod, type HTTPVersion } from 'find-my-way';
import { isUniqueViolation } from '../db/dialect.js';
import { ApiError, errorBody } from '../lib/errors.js';

/** The router's limit on one path parameter; longer is a 414 (ids are far shorter). */
export const MAX_PARAM_LENGTH = 1000;

function send(reply: FastifyReply, code: number, message: string, headers: Record<string, string> = {}) {
  return reply.code(code).headers(headers).type('application/json; charset=utf-8').send(errorBody(code, message));
}

/** Names the failing field in Ajv's words, e.g. `body/title must NOT have more than 64 characters`. */
export function formatValidationErrors(errors: FastifySchemaValidationError[], context: string): Error {
  const first = errors[0];
  if (!first) return new Error(`${context} is invalid`);
  const where = `${context}${first.instancePath ?? ''}`;
  const params = first.params as Record<string, unknown>;
  let message: string;
  if (first.keyword === 'additionalProperties') {
    message = `${where}/${String(params.additionalProperty)} is not a known field`;
  } else if (first.keyword === 'required') {
    message = `${where}/${String(params.missingProperty)} is required`;
  } else if (first.keyword === 'enum') {
    message = `${where} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
  } else {
    message = `${where} ${first.message ?? 'is invalid'}`;
  }
  return new Error(message);
}

/**
 * The error and not-found handlers. Unknown paths are 404; known paths called with another method
 * are 405 with an `Allow` header (a second router, fed by `onRoute`, answers which methods exist).
 * Also refuses requests while closing (503) and HTTP/1.1 requests without `Host` (400), in an
 * `onRequest` hook: register it before the hooks that do any work for a request.
 */
export const errorHandling = fp(registerErrorHandling, { name: 'bindery-errors' });

async function registerErrorHandling(app: FastifyInstance): Promise<void> {
  const knownRoutes = FindMyWay<HTTPVersion.V1>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods as HTTPMethod[]) {
      if (method === 'HEAD' || knownRoutes.hasRoute(method, route.url)) continue;
      knownRoutes.on(method, route.url, () => {});
    }
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
      (method) => knownRoutes.find(method as HTTPMethod, path) !== null,
    );
    // A route of this very method that found nothing (a static file that is not there) is a 404.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(method)) {
      return send(reply, 405, `method ${request.method} is not allowed on ${path}`, {
        allow: allowed.join(', '),
      });
    }
    return send(reply, 404, `no route ${request.method} ${path}`);
  });

  // Node answers these itself with an empty body unless told otherwise (see `http` in app.ts):
  // an `Expect` other than 100-continue, and an HTTP/1.1 request without `Host`.
  app.server.on('checkExpectation', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = JSON.stringify(errorBody(417, 'only "Expect: 100-continue" is supported'));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  // While closing, Fastify would answer new requests with its own 503 body (see `return503OnClosing`).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook (no promise per request). Replying ends the request: `done` is not called then.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      send(reply, 503, 'the server is shutting down', { connection: 'close' });
      return;
    }
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      send(reply, 400, 'the Host header is required');
      return;
    }
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return send(reply, error.statusCode, error.message, error.headers);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      drainOversizedBody(request, reply, OVERSIZED_BODY_DRAIN * (app.initialConfig.bodyLimit ?? 1024 * 1024));
      return send(reply, 413, `the request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes`);
    }
    if (error.validation) return send(reply, 400, error.message);
    if (isUniqueViolation(error)) {
      return send(reply, 409, 'a resource with the same unique value already exists');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type, ...
      return send(reply, status, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, 'internal server error');
  });
}

/** How much of a body over the limit is read and dropped, in multiples of the app's body limit. */
export const OVERSIZED_BODY_DRAIN = 2;

/**
 * A body over the limit is answered at once, but the connection is not closed under a client still
 * writing it (which would then see a reset, EPIPE, instead of the 413): the rest of the body is
 * read and dropped, up to `bound` bytes, past which the connection is closed. Fastify asks for
 * `Connection: close`; with the body read whole the connection is clean and may serve another request.
 */
function drainOversizedBody(request: FastifyRequest, reply: FastifyReply, bound: number): void {
  reply.removeHeader('connection');
  const raw = request.raw;
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) raw.socket.destroy();
  });
  raw.resume();
}

/** A path (or anything else a caller sent) quoted in a message, cut short so errors stay small. */
function quote(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/**
 * Fastify's `frameworkErrors`: the router's own failures, raised before any route or hook runs
 * (a path that is not valid percent-encoding, a path parameter over {@link MAX_PARAM_LENGTH}),
 * answered with the envelope instead of Fastify's own body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const path = quote(request.url.split('?')[0] ?? '/');
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return send(reply, 400, `the path ${path} is not valid percent-encoded UTF-8`);
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return send(reply, 414, `a path segment of ${path} is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  request.log.error({ err: error }, 'router error');
  return send(reply, 500, 'internal server error');
}

/**
 * Fastify's `clientErrorHandler`: the HTTP parser refused the request (malformed, headers too
 * large, too slow), so there is no request to reply to; the envelope is written to the socket.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let code = 400;
  let message = `the request is not valid HTTP (${error.message})`;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    code = 408;
    message = 'the request did not arrive in time';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    code = 431;
    message = `the request line and headers are larger than ${http.maxHeaderSize} bytes`;
  }
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(code, message));
    // The answer to a HEAD has no body (the client would read it as a broken next answer).
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.write(
      `HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}
