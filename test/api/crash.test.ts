/**
 * Crash test: the real server (`node bin/bindery.js serve`, a child process) takes concurrent writes
 * (collections, teams, batch edits), is killed with SIGKILL while requests are in flight, and is
 * started again on the same database: every write it acknowledged (2xx) must be there, and the
 * database must open cleanly. On a SQLite file and on a fresh PostgreSQL database; loopback only.
 * Also checks the one human line `serve` prints.
 */
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { createToken } from '../../src/core/tokens.js';
import { createDb } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { serveProcess as serve } from '../helpers/server.js';

const WORKERS = 6;
/** Kill once this many writes were acknowledged (the rest are in flight or not yet sent). */
const KILL_AFTER = 45;

async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function crashAndRecover(fresh: FreshDatabase) {
  // The organization and token, written before the server starts (as `bindery bootstrap` does).
  const setup = createDb(fresh.url);
  await migrateToLatest(setup);
  const user = await findOrCreateUser(setup, 'crash@example.test', 'Crash');
  const org = await createOrganization(setup, { title: 'Crash' }, user.id);
  const { token } = await createToken(setup, user.id);
  await setup.destroy();

  const first = await serve(fresh.url);
  expect(first.stderr().match(/Bindery listening on/g)).toHaveLength(1);
  const api = (method: string, url: string, body?: unknown) => call(first.base, token, method, url, body);
  const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Crash space' });
  expect(space.status).toBe(201);
  const changeRequests: string[] = [];
  for (let i = 0; i < WORKERS; i++) {
    const cr = await api('POST', `/v1/spaces/${space.body.id}/change-requests`, { subject: `Worker ${i}` });
    expect(cr.status).toBe(201);
    changeRequests.push(cr.body.id);
  }

  const acked = { collections: [] as { id: string; title: string }[], teams: [] as { id: string; title: string }[] };
  const pages = new Map<string, string[]>(changeRequests.map((id) => [id, []]));
  let total = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    first.child.kill('SIGKILL');
  };
  const worker = async (w: number) => {
    const cr = changeRequests[w] as string;
    for (let n = 0; !killed && n < 200; n++) {
      const title = `w${w}-n${n}`;
      try {
        if (n % 3 === 0) {
          const res = await api('POST', `/v1/orgs/${org.id}/collections`, { title });
          if (res.status === 201) acked.collections.push({ id: res.body.id, title });
        } else if (n % 3 === 1) {
          const res = await api('PUT', `/v1/orgs/${org.id}/teams`, { title });
          if (res.status === 201) acked.teams.push({ id: res.body.id, title });
        } else {
          const res = await api('POST', `/v1/spaces/${space.body.id}/change-requests/${cr}/content`, {
            changes: [{ operation: 'insert_page', title, document: { markdown: `Page ${title}.` } }],
          });
          if (res.status === 200) pages.get(cr)?.push(title);
        }
      } catch {
        // The connection died with the server: this write was not acknowledged.
        return;
      }
      if (++total >= KILL_AFTER) kill();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  kill();
  await first.exited;
  expect(total).toBeGreaterThanOrEqual(KILL_AFTER);

  if (!fresh.postgres) {
    // The file opens cleanly and is whole (the WAL left by the killed process is recovered).
    const db = new SQLite(fresh.url);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  }

  const second = await serve(fresh.url);
  try {
    const again = (method: string, url: string) => call(second.base, token, method, url);
    expect((await fetch(`${second.base}/readyz`)).status).toBe(200);
    for (const c of acked.collections) {
      const res = await again('GET', `/v1/collections/${c.id}`);
      expect(res.status, c.title).toBe(200);
      expect(res.body.title).toBe(c.title);
    }
    for (const t of acked.teams) {
      const res = await again('GET', `/v1/orgs/${org.id}/teams/${t.id}`);
      expect(res.status, t.title).toBe(200);
      expect(res.body.title).toBe(t.title);
    }
    for (const [cr, titles] of pages) {
      const res = await again('GET', `/v1/spaces/${space.body.id}/change-requests/${cr}/content/pages`);
      expect(res.status).toBe(200);
      const have = new Set((res.body.pages as { title: string }[]).map((p) => p.title));
      for (const title of titles) expect(have.has(title), title).toBe(true);
    }
    // Still takes writes.
    expect((await call(second.base, token, 'POST', `/v1/orgs/${org.id}/collections`, { title: 'after' })).status).toBe(
      201,
    );
    expect(acked.collections.length + acked.teams.length + [...pages.values()].flat().length).toBeGreaterThan(10);
  } finally {
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }
}

describe('kill -9 under concurrent writes', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase('crash');
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('loses no acknowledged write, and the database opens cleanly', async () => {
    await crashAndRecover(fresh);
  }, 300_000);
});
