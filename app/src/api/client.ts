/**
 * The app's one way to the server: the public `/v1` API and `/auth`, with the session cookie. Unsafe
 * methods carry the session's CSRF token (the server refuses them without it); an error answer
 * becomes an {@link ApiError} carrying the API's own message, which the screens show as it is.
 */
import { basePath } from '../base';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;

/** Set from `GET /auth/session`; cleared on sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `If-Match`. */
  headers?: Record<string, string>;
}

/** `path` is absolute from the server's root (`/v1/...`, `/auth/...`); the base path is added here. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`${basePath}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok)
    throw new ApiError(response.status, errorMessage(data) ?? `${response.status} ${response.statusText}`);
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorMessage(data: unknown): string | undefined {
  const error = (data as { error?: { message?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' ? error.message : undefined;
}

/** Every item of a paged list (`next.page` / `page=`), for lists that a screen shows whole. */
export async function requestAll<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url = page ? `${path}${separator}page=${encodeURIComponent(page)}` : path;
    const answer = await request<{ items: T[]; next?: { page: string } }>(url, { signal });
    items.push(...answer.items);
    page = answer.next?.page;
  } while (page && items.length < 10_000);
  return items;
}
