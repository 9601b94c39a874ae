/**
 * isomorphic-git's HTTP client, under the project's outbound rules (lib/fetch.ts): http(s) only,
 * private and reserved addresses refused unless FETCH_ALLOW_PRIVATE (checked at connection time),
 * a deadline per request, a cap on response bytes, and the job's abort signal. Redirects are not
 * followed (Git servers answer smart HTTP directly; a redirect is reported as an error).
 */
import http from 'node:http';
import https from 'node:https';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { FetchError, FetchTooLargeError, guardConnection, parseHttpUrl } from '../lib/fetch.js';

export interface GitHttpOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Largest response of one request (a pack), in bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

async function collect(body: GitHttpRequest['body']): Promise<Buffer | undefined> {
  if (!body) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export function guardedGitHttp(options: GitHttpOptions): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const url = parseHttpUrl(request.url);
      const guard = guardConnection(url, options.allowPrivate);
      const payload = await collect(request.body);
      const signal = options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)])
        : AbortSignal.timeout(options.timeoutMs);
      const lib = url.protocol === 'https:' ? https : http;
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const outgoing = lib.request(url, {
          method: request.method ?? 'GET',
          headers: {
            'user-agent': 'Bindery-Git',
            ...request.headers,
            ...(payload ? { 'content-length': String(payload.length) } : {}),
          },
          agent: false,
          signal,
          ...guard,
        });
        outgoing.on('response', resolve);
        outgoing.on('error', (error) =>
          reject(
            error instanceof FetchError
              ? error
              : new FetchError(
                  `could not reach ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
                  url.origin,
                ),
          ),
        );
        outgoing.end(payload);
      });
      // The whole body is read here, so the size cap holds before isomorphic-git parses anything.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response) {
        size += (chunk as Buffer).length;
        if (size > options.maxBytes) {
          response.destroy();
          throw new FetchTooLargeError(`${url.origin} sent more than ${options.maxBytes} bytes`, url.origin);
        }
        chunks.push(chunk as Buffer);
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      const data = Buffer.concat(chunks);
      async function* body() {
        yield new Uint8Array(data);
      }
      return {
        url: request.url,
        method: request.method ?? 'GET',
        statusCode: response.statusCode ?? 0,
        statusMessage: response.statusMessage ?? '',
        headers,
        body: body(),
      };
    },
  };
}
