import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertFetchableUrl,
  FetchAbortedError,
  FetchError,
  FetchForbiddenAddressError,
  FetchStatusError,
  FetchTimeoutError,
  FetchTooLargeError,
  guardedFetch,
  isForbiddenAddress,
} from '../../src/lib/fetch.js';

let requests = 0;
const server = http.createServer((request, response) => {
  requests++;
  const url = new URL(request.url ?? '/', 'http://x');
  const hops = Number(url.searchParams.get('hops') ?? 0);
  switch (url.pathname) {
    case '/ok':
      return response.end('hello');
    case '/gzip':
      return response.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('x'.repeat(5000)));
    case '/big':
      return response.end('x'.repeat(2000));
    case '/chunked': {
      response.writeHead(200);
      for (let i = 0; i < 20; i++) response.write('x'.repeat(100));
      return response.end();
    }
    case '/slow':
      setTimeout(() => response.end('late'), 2000).unref();
      return;
    case '/redirect':
      return response.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/ok' }).end();
    case '/to-ftp':
      return response.writeHead(301, { location: 'ftp://example.com/' }).end();
    default:
      return response.writeHead(404).end();
  }
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = { allowPrivate: true, timeoutMs: 500, maxBytes: 1000 };

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.15.255.255', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['::', true],
    ['::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::a00:1', true],
    ['2002:c0a8:101::', true],
    ['2001:db8::1', true],
    ['2606:4700:4700::1111', false],
    ['[::1]', true],
    ['not-an-ip', true],
  ])('%s -> %s', (address, forbidden) => {
    expect(isForbiddenAddress(address)).toBe(forbidden);
  });
});

describe('guardedFetch', () => {
  it('fetches, follows relative redirects (at most 5) and decompresses', async () => {
    const ok = await guardedFetch(`${base}/ok`, open);
    expect(ok).toMatchObject({ url: `${base}/ok`, status: 200 });
    expect(ok.body.toString()).toBe('hello');
    const redirected = await guardedFetch(`${base}/redirect?hops=5`, open);
    expect(redirected.url).toBe(`${base}/ok`);
    await expect(guardedFetch(`${base}/redirect?hops=6`, open)).rejects.toThrow(/more than 5 times/);
    await expect(guardedFetch(`${base}/to-ftp`, open)).rejects.toThrow(FetchError);
    const gzip = await guardedFetch(`${base}/gzip`, { ...open, maxBytes: 10_000 });
    expect(gzip.body.toString()).toBe('x'.repeat(5000));
  });

  it('enforces the byte cap (declared or streamed, after decompression), the deadline and HTTP errors', async () => {
    await expect(guardedFetch(`${base}/big`, open)).rejects.toThrow(FetchTooLargeError);
    await expect(guardedFetch(`${base}/chunked`, open)).rejects.toThrow(FetchTooLargeError);
    await expect(guardedFetch(`${base}/gzip`, open)).rejects.toThrow(FetchTooLargeError);
    const started = Date.now();
    await expect(guardedFetch(`${base}/slow`, { ...open, timeoutMs: 200 })).rejects.toThrow(FetchTimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    const missing = await guardedFetch(`${base}/missing`, open).catch((e) => e);
    expect(missing).toBeInstanceOf(FetchStatusError);
    expect(missing.status).toBe(404);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(guardedFetch(`${base}/slow`, { ...open, signal: controller.signal })).rejects.toThrow(
      FetchAbortedError,
    );
  });

  it('refuses private addresses, by literal or by name, without sending a request', async () => {
    const guarded = { ...open, allowPrivate: false };
    const before = requests;
    const port = new URL(base).port;
    for (const url of [`${base}/ok`, `http://localhost:${port}/ok`, `http://[::ffff:127.0.0.1]:${port}/ok`]) {
      await expect(guardedFetch(url, guarded), url).rejects.toThrow(FetchForbiddenAddressError);
    }
    expect(requests).toBe(before);
    await expect(guardedFetch('file:///etc/passwd', guarded)).rejects.toThrow(/only http and https/);
    await expect(assertFetchableUrl(`http://localhost:${port}/`, false)).rejects.toThrow(FetchForbiddenAddressError);
    await expect(assertFetchableUrl('http://10.0.0.1/', false)).rejects.toThrow(FetchForbiddenAddressError);
    await expect(assertFetchableUrl('gopher://example.com/', true)).rejects.toThrow(FetchError);
    expect((await assertFetchableUrl(`${base}/ok`, true)).href).toBe(`${base}/ok`);
    expect((await assertFetchableUrl('http://93.184.215.14/', false)).hostname).toBe('93.184.215.14');
  });
});
