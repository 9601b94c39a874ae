/**
 * Fuzzing of the published-site routes: random and hostile paths, query strings, headers (Host,
 * cookies, Accept, …) and methods, at the site's path and on its own host. Whatever the request,
 * the answer is a proper status (never a 5xx), without a stack trace, and an error answered as JSON
 * is the envelope. The inputs come from a seeded generator: a failure names its seed and request.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
let w: PublishedWorld;
let listening: string;
const CUSTOM_HOST = 'docs.fuzz.test';
beforeAll(async () => {
  h = await createHarness();
  w = await publishedWorld(h);
  await h.db.updateTable('organizations').set({ custom_hostname: CUSTOM_HOST }).where('id', '=', w.orgId).execute();
  await w.admin.client.patch(w.api, { title: 'Acme Docs' });
  listening = await h.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => h?.close());

/** mulberry32: a small seeded generator, so that a failing case can be replayed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const SEGMENTS = [
  'getting-started',
  'installation',
  'reference',
  'api',
  'guide',
  '~feedback',
  '~search',
  '~search.json',
  '~ask',
  '~files',
  '~assets',
  '~assets/site-0000.css',
  '~files/nope/nope/x.png',
  'robots.txt',
  'sitemap.xml',
  'llms.txt',
  'llms-full.txt',
  'getting-started.md',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%E2%80%AE',
  '%FF%FE',
  'é',
  '%F0%9F%9A%80',
  '<script>alert(1)</script>',
  '"quoted"',
  "'",
  '\\',
  '',
  'x'.repeat(1200),
  'a.md.md',
  'index.html',
  '.git',
  '~',
];
const QUERIES = [
  '',
  '?',
  '?q=',
  '?q=install',
  '?q=%',
  '?q=%E0%A4%A',
  `?q=${'x'.repeat(5000)}`,
  '?q=a&q=b&q=c',
  '?ask=why',
  '?page=-1',
  '?page=abc',
  '?visitor=garbage',
  '?jwt_token=a.b.c',
  '?token=%00',
  '?limit=1e309',
  '?__proto__[x]=1',
  '?constructor=1',
  '?fallback=https://evil.test',
];
const HOSTS: Array<string | undefined> = [
  undefined,
  'bindery.test',
  CUSTOM_HOST,
  `${CUSTOM_HOST}:8080`,
  'DOCS.FUZZ.TEST',
  'unknown.test',
  '[::1]:80',
  'bindery.test:abc',
  'a'.repeat(300),
  '',
  'evil.test, bindery.test',
  'bindery.test\t',
];
const HEADERS: Array<Record<string, string>> = [
  {},
  { accept: 'text/markdown' },
  { accept: 'application/json' },
  { accept: '*/*;q=abc' },
  { accept: 'x'.repeat(4000) },
  { cookie: 'gitbook-visitor-token=garbage' },
  { cookie: `gitbook-visitor-token=${'a.'.repeat(2000)}` },
  { cookie: '=; ; ;==;%%%' },
  { cookie: Array.from({ length: 200 }, (_, i) => `c${i}=${i}`).join('; ') },
  { 'accept-language': 'zz-ZZ;q=2, *;q=-1' },
  { 'x-forwarded-proto': 'gopher' },
  { 'x-forwarded-host': 'evil.test' },
  { 'if-none-match': '"garbage", W/' },
  { 'if-modified-since': 'yesterday' },
  { range: 'bytes=999999-0' },
  { 'content-type': 'application/x-www-form-urlencoded' },
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const BODIES = ['', 'rating=good&page=/x', 'rating=%zz', `comment=${'x'.repeat(20_000)}`, '{"rating":"good"}'];

interface Case {
  method: (typeof METHODS)[number];
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function makeCase(g: ReturnType<typeof generator>): Case {
  const method = g.pick(METHODS);
  const host = g.pick(HOSTS);
  const onHost = host?.toLowerCase().startsWith(CUSTOM_HOST.toLowerCase()) === true;
  const prefix = onHost ? '/acme-docs' : g.next() < 0.9 ? w.base : g.pick(['/sites', `/sites/${w.orgId}`, '', '/v1']);
  const depth = Math.floor(g.next() * 4);
  const path = Array.from({ length: depth }, () => g.pick(SEGMENTS)).join('/');
  const url = `${prefix}/${path}${g.next() < 0.2 ? '/' : ''}${g.pick(QUERIES)}`;
  const headers: Record<string, string> = { ...g.pick(HEADERS), ...(g.next() < 0.3 ? g.pick(HEADERS) : {}) };
  if (host !== undefined) headers.host = host;
  const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return { method, url, headers, ...(withBody ? { body: g.pick(BODIES) } : {}) };
}

/** What is wrong with an answer, or null (the answer to a HEAD has no body to check, and must have none). */
function problem(method: string, status: number, contentType: string, body: string): string | null {
  if (!http.STATUS_CODES[status]) return `unknown status ${status}`;
  if (status >= 500) return `status ${status}`;
  if (method === 'HEAD') return body === '' ? null : 'a body in the answer to a HEAD';
  if (/\n\s+at [^\n]*\(?(\/|file:|node:)/.test(body) || /node_modules|\/src\/[\w/-]+\.ts/.test(body)) {
    return 'a stack trace or source path in the body';
  }
  if (status >= 400 && contentType.includes('json')) {
    try {
      const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
      if (parsed.error?.code !== status || typeof parsed.error.message !== 'string') return 'not the error envelope';
    } catch {
      return 'JSON that does not parse';
    }
  }
  return null;
}

const describeCase = (seed: number, c: Case) =>
  `seed ${seed}: ${c.method} ${c.url.slice(0, 120)} ${JSON.stringify(c.headers).slice(0, 200)}`;

describe('fuzzing the published routes', () => {
  it('answers every generated request with a proper status, never a 5xx or a stack trace', async () => {
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (let seed = 1; seed <= 600; seed++) {
      const c = makeCase(generator(seed));
      const res = await h.app.inject({
        method: c.method,
        url: c.url,
        headers: c.headers,
        ...(c.body !== undefined ? { payload: c.body } : {}),
      });
      statuses.add(res.statusCode);
      const wrong = problem(c.method, res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
      if (wrong) failures.push(`${describeCase(seed, c)} -> ${res.statusCode} ${wrong}: ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // The generator reaches pages, misses and refusals alike.
    expect([...statuses].filter((s) => s < 300).length).toBeGreaterThan(0);
    expect(statuses.has(404)).toBe(true);
    expect([...statuses].some((s) => s === 405 || s === 400 || s === 415)).toBe(true);
  }, 180_000);

  it('answers the same over a real socket (raw Host headers and paths as sent)', async () => {
    const { port } = new URL(listening);
    const failures: string[] = [];
    for (let seed = 1001; seed <= 1150; seed++) {
      const c = makeCase(generator(seed));
      const outcome = await new Promise<{ status: number; type: string; body: string } | string>((resolve) => {
        const headers = {
          ...c.headers,
          ...(c.body !== undefined ? { 'content-length': String(Buffer.byteLength(c.body)) } : {}),
        };
        let request: http.ClientRequest;
        try {
          request = http.request({
            host: '127.0.0.1',
            port,
            method: c.method,
            path: c.url,
            headers,
            setHost: !('host' in headers),
          });
        } catch (error) {
          // A header Node's own client refuses to send (e.g. a tab in Host): not a server case.
          return resolve(`client refused: ${(error as Error).message}`);
        }
        request.on('response', (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), body }),
          );
        });
        request.on('error', (error) => resolve(`error: ${error.message}`));
        request.end(c.body);
      });
      if (typeof outcome === 'string') {
        if (!outcome.startsWith('client refused')) failures.push(`${describeCase(seed, c)} -> ${outcome}`);
        continue;
      }
      const wrong = problem(c.method, outcome.status, outcome.type, outcome.body);
      if (wrong) failures.push(`${describeCase(seed, c)} -> ${outcome.status} ${wrong}: ${outcome.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
