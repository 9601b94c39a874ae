/**
 * `WORKERS=N`: the real server (`bindery serve`) as a node:cluster primary with N worker processes on
 * one port. A member removed through one worker is refused at once by every worker, although each
 * had cached the membership (invalidations are relayed through the primary). SQLite refuses
 * WORKERS > 1 at start-up.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { createToken } from '../../src/core/tokens.js';
import { createDb } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { bin, type ServerProcess, serveProcess } from '../helpers/server.js';

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase('workers');
});
afterAll(async () => fresh?.drop());

/** One request on a new connection (the primary hands connections to the workers in turn). */
function get(base: string, token: string, url: string, method = 'GET'): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method, agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('WORKERS', () => {
  it('refuses more than one worker on SQLite', async () => {
    if (fresh.postgres) return;
    const result = spawnSync(process.execPath, [bin, 'serve'], {
      env: { ...process.env, DATABASE_URL: fresh.url, WORKERS: '2', PORT: '0', HOST: '127.0.0.1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/WORKERS must be 1 with SQLite/);
  });

  it('runs N processes on one port; a removed member is refused by all of them at once', async () => {
    if (!fresh.postgres) return;
    const setup = createDb(fresh.url);
    await migrateToLatest(setup);
    const admin = await findOrCreateUser(setup, 'admin@workers.test', 'Admin');
    const member = await findOrCreateUser(setup, 'member@workers.test', 'Member');
    const org = await createOrganization(setup, { title: 'Workers' }, admin.id);
    await setup
      .insertInto('members')
      .values({
        organization_id: org.id,
        user_id: member.id,
        role: 'read',
        disabled: 0,
        sso: 0,
        joined_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    const adminToken = (await createToken(setup, admin.id)).token;
    const memberToken = (await createToken(setup, member.id)).token;
    await setup.destroy();

    let server: ServerProcess | undefined;
    try {
      server = await serveProcess(fresh.url, { WORKERS: '2' });
      expect(server.stderr()).toMatch(/\(2 workers\)/);
      const base = server.base;
      // Connections are spread over the workers: enough requests reach (and warm the cache of) both.
      for (let i = 0; i < 8; i++) expect((await get(base, memberToken, `/v1/orgs/${org.id}`)).status).toBe(200);
      const removed = await get(base, adminToken, `/v1/orgs/${org.id}/members/${member.id}`, 'DELETE');
      expect(removed.status).toBe(204);
      for (let i = 0; i < 8; i++) expect((await get(base, memberToken, `/v1/orgs/${org.id}`)).status).toBe(404);
    } finally {
      server?.child.kill('SIGTERM');
      await server?.exited;
    }
  }, 300_000); // three processes start (without a build: through tsx) on a busy machine
});
