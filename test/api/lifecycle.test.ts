/** What operators rely on: logs without secrets, and a shutdown that lets running work finish. */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createToken } from '../../src/core/tokens.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-life-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * An app whose log goes to `logLines`, one entry per line (the request log writes its lines in
 * batches: one write may carry several); `writes` counts the writes.
 */
async function appOnFile(name: string, logLines?: string[], writes?: string[]) {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'info', JOB_CONCURRENCY: '0' }),
    databaseUrl: `sqlite:${path.join(dir, name)}`,
  };
  const app = await buildApp({
    config,
    ...(logLines
      ? {
          logStream: {
            write: (text: string) => {
              writes?.push(text);
              logLines.push(...text.split('\n').filter((line) => line !== ''));
            },
          },
        }
      : {}),
  });
  return app;
}

/** The path and query as fetch sends them (it percent-encodes what a URL may not hold). */
const sentPath = (pathAndQuery: string) => {
  const url = new URL(`http://localhost${pathAndQuery}`);
  return url.pathname + url.search;
};

describe('logs', () => {
  it('are JSON lines with a request id and never contain the token', async () => {
    const lines: string[] = [];
    const app = await appOnFile('logs.sqlite', lines);
    const user = await findOrCreateUser(app.db, 'logger@example.test', 'Logger');
    const { token } = await createToken(app.db, user.id);
    const res = await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}x` } });
    await app.close();
    expect(lines.length).toBeGreaterThan(0);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.some((e) => e.reqId && e.req?.url === '/v1/user')).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain(token.slice(4, 20));
  });

  it('write one line per request, as pino would, and errors whole', async () => {
    const lines: string[] = [];
    const app = await appOnFile('request-lines.sqlite', lines);
    app.get('/v1/boom', { config: { public: true } }, async () => {
      throw new Error('kaboom');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const tricky = '/v1/nowhere?q=%22quoted%22&name="\u00e9\\';
    const missing = await fetch(`${address}${tricky}`, { headers: { 'x-request-id': 'client-"id"' } });
    expect(missing.status).toBe(404);
    const failed = await fetch(`${address}/v1/boom`);
    expect(failed.status).toBe(500);
    await app.close();

    const entries = lines.map((line) => JSON.parse(line));
    const completed = entries.filter((e) => e.msg === 'request completed');
    const miss = completed.find((e) => e.reqId === 'client-"id"');
    expect(Object.keys(miss)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'req',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(miss).toMatchObject({
      level: 30,
      pid: process.pid,
      hostname: os.hostname(),
      req: { method: 'GET', url: sentPath(tricky), remoteAddress: '127.0.0.1' },
      res: { statusCode: 404 },
    });
    expect(Math.abs(miss.time - Date.now())).toBeLessThan(60_000);
    expect(typeof miss.responseTime).toBe('number');
    // A failure is logged whole, with its error, through pino.
    const error = entries.find((e) => e.err?.message === 'kaboom');
    expect(error).toMatchObject({ level: 50, reqId: expect.any(String) });
    expect(error.err.stack).toContain('kaboom');
  });

  it('are written in batches, in order, and none is lost on close', async () => {
    const lines: string[] = [];
    const writes: string[] = [];
    const app = await appOnFile('request-batches.sqlite', lines, writes);
    app.get('/v1/fail', { config: { public: true } }, async () => {
      throw new Error('failing on purpose');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // Requests that arrive together (as under load) are answered in the same turns and share writes.
    const { port } = new URL(address);
    const sockets = await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
            socket.on('error', reject);
          }),
      ),
    );
    const answers = sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk;
          });
          socket.on('end', () => resolve(text));
        }),
    );
    // Sent once the server has accepted every connection, so that the requests arrive together.
    const connections = () =>
      new Promise<number>((resolve, reject) => app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    while ((await connections()) < sockets.length) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const [i, socket] of sockets.entries()) {
      socket.write(`GET /healthz?n=${i} HTTP/1.1\r\nHost: x\r\nX-Request-Id: b${i}\r\nConnection: close\r\n\r\n`);
    }
    expect((await Promise.all(answers)).every((text) => text.startsWith('HTTP/1.1 200'))).toBe(true);
    // A success line queued just before an error line is written before it.
    expect((await fetch(`${address}/healthz?before-error`, { headers: { 'x-request-id': 'first' } })).status).toBe(200);
    expect((await fetch(`${address}/v1/fail`, { headers: { 'x-request-id': 'second' } })).status).toBe(500);
    // The last line is still queued when close begins; closing writes it.
    expect((await fetch(`${address}/healthz?last`, { headers: { 'x-request-id': 'last' } })).status).toBe(200);
    await app.close();

    const entries = lines.map((line) => JSON.parse(line));
    const completed = entries.filter((e) => e.msg === 'request completed').map((e) => e.reqId);
    for (let i = 0; i < 40; i++) expect(completed).toContain(`b${i}`);
    expect(completed).toContain('last');
    expect(writes.length).toBeLessThan(completed.length);
    expect(Math.max(...writes.map((text) => text.split('\n').length - 1))).toBeGreaterThan(1);
    const first = entries.findIndex((e) => e.reqId === 'first' && e.msg === 'request completed');
    const failure = entries.findIndex((e) => e.reqId === 'second' && e.err?.message === 'failing on purpose');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(failure).toBeGreaterThan(first);
  });
});

describe('shutdown', () => {
  it('waits for running handlers before closing the database', async () => {
    const app = await appOnFile('drain.sqlite');
    app.get('/v1/slow', { config: { public: true } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const row = await app.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return { users: Number(row?.n) };
    });
    await app.ready();
    const pending = app.inject({ method: 'GET', url: '/v1/slow' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close();
    const res = await pending;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ users: 0 });
  });
});
