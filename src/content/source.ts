/**
 * Reads what a caller points at by URL (an import source, a file inserted by URL): a `data:` URI
 * is decoded in place; `http(s):` goes through the guarded fetch. Failures become API errors that
 * say what went wrong (400, or 413 past the size limit).
 */
import { ApiError, badRequest, payloadTooLarge } from '../lib/errors.js';
import { FetchError, guardedFetch } from '../lib/fetch.js';

export interface SourceOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs?: number;
}

export interface SourceBody {
  url: string;
  contentType: string;
  body: Buffer;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Decodes `data:[<type>][;base64],<data>`. */
export function decodeDataUri(uri: string, maxBytes: number): SourceBody {
  const match = /^data:([^,]*?),([\s\S]*)$/i.exec(uri);
  if (!match) throw badRequest('body/url is not a valid data: URI');
  const meta = match[1] ?? '';
  const data = match[2] ?? '';
  const base64 = /;base64$/i.test(meta);
  const contentType = meta.replace(/;base64$/i, '') || 'text/plain;charset=US-ASCII';
  // Checked before decoding, so an oversized URI is refused without building it.
  const estimated = base64 ? Math.floor((data.length * 3) / 4) : data.length;
  if (estimated > maxBytes * 3) throw payloadTooLarge(`the data: URI is larger than the limit of ${maxBytes} bytes`);
  let body: Buffer;
  try {
    body = base64 ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'utf8');
  } catch {
    throw badRequest('body/url is not a valid data: URI');
  }
  if (body.length > maxBytes) throw payloadTooLarge(`the data: URI is larger than the limit of ${maxBytes} bytes`);
  return { url: uri, contentType, body };
}

/** The body at `url`; 400 when it cannot be fetched or answers an error, 413 when too large. */
export async function readSource(url: string, options: SourceOptions): Promise<SourceBody> {
  if (/^data:/i.test(url)) return decodeDataUri(url, options.maxBytes);
  try {
    const result = await guardedFetch(url, {
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: options.maxBytes,
    });
    if (result.status < 200 || result.status >= 300) {
      throw badRequest(`fetching ${url} answered HTTP ${result.status}`);
    }
    return { url: result.url, contentType: result.contentType ?? '', body: result.body };
  } catch (error) {
    throw toApiError(error);
  }
}

export function toApiError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError) {
    if (error.code === 'FETCH_TOO_LARGE') return payloadTooLarge(error.message);
    return badRequest(`${error.code}: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
