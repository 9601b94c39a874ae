/**
 * The one error envelope of the API: `{"error": {"code": <status>, "message": "..."}}`.
 * Handlers throw {@link ApiError}s made by the factories below; everything else that goes wrong is
 * turned into the same envelope by the HTTP error handlers (src/http/errors.ts) — never a stack
 * trace, and a 500 only for our own faults.
 */
import { Type } from 'typebox';

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
