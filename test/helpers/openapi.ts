/**
 * Set-up shared by the tests of OpenAPI specifications (test/api/openapi*.test.ts, and the sources
 * of test/contract/openapi.contract.test.ts): a server on loopback for the documents the app fetches,
 * a small valid document, the job worker that processes sources, and a poll until processing is done.
 *
 * The source server is one per test file (each file runs in its own module graph):
 * `startSpecSources()` before the tests, `stopSpecSources()` after them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { type Client, createHarness, type Harness } from './app.js';

/** What the source server answers at a path: a body, a failing status, or a slow answer. */
export type Served = { body: string; type?: string } | { status: number } | { delayMs: number };

/** The source server's answers by path; tests set entries for paths of their own. */
export const served = new Map<string, Served>();
const sources = http.createServer((request, response) => {
  const entry = served.get(request.url ?? '');
  if (!entry) return response.writeHead(404).end('not found');
  if ('delayMs' in entry) {
    setTimeout(() => response.end('{}'), entry.delayMs).unref();
    return;
  }
  if ('status' in entry) return response.writeHead(entry.status).end();
  response.writeHead(200, { 'content-type': entry.type ?? 'application/json' }).end(entry.body);
});
let base = '';

export async function startSpecSources(): Promise<void> {
  await new Promise<void>((resolve) => sources.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
}

export async function stopSpecSources(): Promise<void> {
  sources.closeAllConnections();
  await new Promise((resolve) => sources.close(resolve));
}

/** The URL of `path` on the source server. */
export const sourceUrl = (path: string) => `${base}${path}`;

let counter = 0;
/** A number not used before in this test file, for fresh paths. */
export const fresh = () => ++counter;

/** Serves `document` at a fresh path (or `path`); returns its URL. */
export function serve(document: unknown, path = `/spec-${fresh()}/openapi.json`): string {
  served.set(path, { body: typeof document === 'string' ? document : JSON.stringify(document) });
  return sourceUrl(path);
}

export function petstore(title = 'Pets', extraPaths: Record<string, unknown> = {}) {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/pets': { get: { responses: { 200: { description: 'the pets' } } } }, ...extraPaths },
  };
}

/**
 * A job worker that may fetch from loopback. On PostgreSQL every test file shares the job table, so
 * a job may be claimed by the worker of another file that processes OpenAPI sources: they all run
 * this configuration (some with a slower poll), so a job ends the same way whichever claims it.
 */
export const WORKER = { fetchAllowPrivate: true, jobConcurrency: 2, jobPollMs: 50, fetchTimeoutMs: 1000 };

/** Starts the source server and a harness with {@link WORKER} (and `overrides`); its `close` stops both. */
export async function startOpenAPIHarness(overrides: Partial<typeof WORKER> = {}): Promise<Harness> {
  await startSpecSources();
  const h = await createHarness({ ...WORKER, ...overrides });
  return {
    ...h,
    async close() {
      await h.close();
      await stopSpecSources();
    },
  };
}

export const specsUrl = (orgId: string) => `/v1/orgs/${orgId}/openapi`;

/** Polls the specification until its processing is complete (bounded). */
export async function processed(client: Client, url: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(url);
    expect(res.status).toBe(200);
    if (res.body.processingState === 'complete') return res.body;
    if (Date.now() > deadline) throw new Error(`specification still ${res.body.processingState}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
