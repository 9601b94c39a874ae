/** The guarded fetch: address ranges, redirects, time and size limits (loopback only, allowed explicitly). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, isForbiddenAddress } from '../../src/core/fetch.js';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/slow') return; // never answers
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
      return;
    }
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' }).end(Buffer.alloc(5000));
      return;
    }
    if (req.url?.startsWith('/hop')) {
      const n = Number(req.url.slice(4) || 0);
      res.writeHead(302, { location: `/hop${n + 1}` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const open = { allowPrivate: true, timeoutMs: 2000, maxBytes: 1000 };

describe('guardedFetch', () => {
  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('fetches with the final URL, status and content type', async () => {
    const ok = await guardedFetch(`${base}/`, open);
    expect(ok).toMatchObject({ status: 200, contentType: 'text/plain; charset=utf-8', url: `${base}/` });
    expect(ok.body.toString()).toBe('hello');
  });

  it('refuses private targets by default, by literal address and by name', async () => {
    const port = new URL(base).port;
    for (const url of [`${base}/`, `http://localhost:${port}/`, 'ftp://example.com/']) {
      await expect(guardedFetch(url, { ...open, allowPrivate: false })).rejects.toMatchObject({
        code: 'FETCH_FORBIDDEN_ADDRESS',
      });
    }
  });

  it('bounds redirects, time and size', async () => {
    await expect(guardedFetch(`${base}/hop0`, { ...open, maxRedirects: 2 })).rejects.toMatchObject({
      code: 'FETCH_FAILED',
    });
    await expect(guardedFetch(`${base}/slow`, { ...open, timeoutMs: 200 })).rejects.toMatchObject({
      code: 'FETCH_TIMEOUT',
    });
    await expect(guardedFetch(`${base}/big`, open)).rejects.toMatchObject({ code: 'FETCH_TOO_LARGE' });
    await expect(guardedFetch(`${base}/declared`, open)).rejects.toMatchObject({ code: 'FETCH_TOO_LARGE' });
  });
});
