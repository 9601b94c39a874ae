/**
 * The one error envelope of the API: `{"error": {"code": <status>, "message": "..."}}`.
 * Handlers throw {@link ApiError}s made by the factories below; everything else that goes wrong is
 * turned into the same envelope by {@link registerErrorHandling} — never a stack trace, and a 500
 * only for our own faults.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import FindMyWay, { type HTTPMethod, type HTTPVersion } from 'find-my-way';
import { Type } from 'typebox';
import { isUniqueViolation } from '../db/dialect.js';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) =>
  new ApiError(401, message, { 'www-authenticate': 'Bearer realm="bindery"' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const payloadTooLarge = (message: string) => new ApiError(413, message);

/** The error body's schema, for route `response` declarations and the OpenAPI document. */
export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.Integer(), message: Type.String() }) },
  { $id: 'Error', title: 'Error' },
);

export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

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
 * Installs the error and not-found handlers. Unknown paths are 404; known paths called with another
 * method are 405 with an `Allow` header (a second router, fed by `onRoute`, answers which methods exist).
 */
export function registerErrorHandling(app: FastifyInstance): void {
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
    if (allowed.length > 0) {
      return send(reply, 405, `method ${request.method} is not allowed on ${path}`, {
        allow: allowed.join(', '),
      });
    }
    return send(reply, 404, `no route ${request.method} ${path}`);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return send(reply, error.statusCode, error.message, error.headers);
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
