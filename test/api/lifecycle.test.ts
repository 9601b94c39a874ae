/** What operators rely on: logs without secrets, and a shutdown that lets running work finish. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createToken } from '../../src/core/tokens.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-life-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function appOnFile(name: string, logLines?: string[]) {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'info', JOB_CONCURRENCY: '0' }),
    databaseUrl: `sqlite:${path.join(dir, name)}`,
  };
  const app = await buildApp({
    config,
    ...(logLines ? { logStream: { write: (line: string) => logLines.push(line) } } : {}),
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
