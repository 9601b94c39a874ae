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
