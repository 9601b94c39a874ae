/**
 * `bindery backup` and `bindery restore`, as an operator runs them (child processes): every kind of
 * resource is created through HTTP, the database is backed up while the app serves (and writes go on
 * elsewhere), restored into a new database, and an app on the restored database answers every read
 * as the first did. On PostgreSQL the commands print the pg_dump/pg_restore lines, which are run.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/api/organizations/repo.js';
import { findOrCreateUser } from '../../src/api/users/repo.js';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createToken } from '../../src/core/tokens.js';
import { createDb, type Db } from '../../src/db/database.js';
import { Client } from '../helpers/app.js';
import { PNG } from '../helpers/fixtures.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { edit } from '../helpers/published.js';

const execFileAsync = promisify(execFile);
const bin = path.resolve('bin/bindery.js');

async function bindery(databaseUrl: string, ...args: string[]) {
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [bin, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function open(url: string): Promise<{ app: App; db: Db }> {
  const db = createDb(url);
  const config = {
    ...loadConfig({ PUBLIC_URL: 'http://bindery.test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' }),
    databaseUrl: url,
    jobConcurrency: 0,
  };
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  return { app, db };
}

/** Fields whose value depends on the clock of the read, not on the stored resource. */
const CLOCK_FIELDS = new Set(['lastSeenAt']);
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !CLOCK_FIELDS.has(k))
        .map(([k, v]) => [k, withoutClock(v)]),
    );
  }
  return value;
}

/** Creates one of every kind of resource; returns the URLs that read them back. */
async function world(app: App, db: Db): Promise<{ token: string; reads: string[] }> {
  const admin = await findOrCreateUser(db, 'owner@backup.test', 'Owner');
  const { token } = await createToken(db, admin.id);
  const c = new Client(app, token);
  const ok = (res: { status: number; body: unknown }, status = 201) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body as any;
  };
  const org = ok(await c.post('/v1/orgs', { title: 'Backup Org' }));
  const o = `/v1/orgs/${org.id}`;
  const editor = await findOrCreateUser(db, 'editor@backup.test', 'Editor');
  const second = await createOrganization(db, { title: 'Editor home' }, editor.id);
  expect(second.id).toBeTruthy();
  ok(
    await c.post(`${o}/invites`, { emails: [{ email: 'editor@backup.test', role: 'edit' }, 'reader@backup.test'] }),
    200,
  );
  const members = ok(await c.get(`${o}/members`), 200).items as Array<{ user: { id: string; email: string } }>;
  const editorId = members.find((m) => m.user.email === 'editor@backup.test')?.user.id as string;
  const team = ok(await c.put(`${o}/teams`, { title: 'Writers', members: [editorId] }));
  const collection = ok(await c.post(`${o}/collections`, { title: 'Handbook', description: 'All of it' }));
  const space = ok(await c.post(`${o}/spaces`, { title: 'Guide', parent: collection.id }));
  const other = ok(await c.post(`${o}/spaces`, { title: 'Reference' }));
  ok(await c.post(`/v1/spaces/${space.id}/permissions`, { role: 'edit', teams: [team.id] }), 204);
  ok(await c.post(`/v1/spaces/${space.id}/permissions`, { role: 'review', users: [editorId] }), 204);
  ok(await c.post(`/v1/collections/${collection.id}/permissions`, { role: 'read', users: [editorId] }), 204);
  const pages = await edit(c, space.id, [
    () => [
      {
        operation: 'insert_files',
        files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }],
      },
      { operation: 'insert_page', ref: 'start', title: 'Start', document: { markdown: 'Read [Install](install.md).' } },
      { operation: 'insert_page', ref: 'install', title: 'Install', document: { markdown: '## Steps\n\nRun it.' } },
    ],
  ]);
  await edit(c, other.id, [
    () => [{ operation: 'insert_page', title: 'Endpoints', document: { markdown: 'Every endpoint answers JSON.' } }],
  ]);
  // An open change request with its own revision and a reviewer.
  const cr = ok(await c.post(`/v1/spaces/${space.id}/change-requests`, { subject: 'Draft' }));
  ok(
    await c.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'Soon.' } }],
    }),
    200,
  );
  ok(await c.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, { users: [editorId] }), 200);
  const files = ok(await c.get(`/v1/spaces/${space.id}/content/files`), 200).items as Array<{ id: string }>;
  const revision = ok(await c.get(`/v1/spaces/${space.id}/content`), 200).id as string;

  const site = ok(await c.post(`${o}/sites`, { title: 'Docs', spaces: [space.id], visibility: 'share-link' }));
  const s = `${o}/sites/${site.id}`;
  ok(await c.post(`${s}/sections`, { spaceId: other.id, title: 'API' }));
  const sections = ok(await c.get(`${s}/sections`), 200).items as Array<{ id: string }>;
  ok(await c.post(`${s}/section-groups`, { title: 'More', sections: [sections[1]?.id] }));
  const siteSpaces = ok(await c.get(`${s}/site-spaces`), 200).items as Array<{ id: string }>;
  ok(
    await c.post(`${s}/redirects`, {
      source: '/old',
      destination: { kind: 'site-space', siteSpaceId: siteSpaces[0]?.id },
    }),
  );
  ok(await c.post(`${s}/redirects`, { source: '/blog', destination: { kind: 'external', url: 'https://blog.test/' } }));
  ok(await c.post(`${s}/share-links`, { name: 'Partners' }));
  ok(await c.put(`${s}/customization`, { styling: { theme: 'muted' }, title: 'Custom' }), 200);
  ok(await c.post(`${s}/publish`), 200);
  ok(await c.post(`${o}/openapi`, { slug: 'pets', source: { text: JSON.stringify(PETSTORE) } }));
  const integration = `backup-${org.id.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 40);
  ok(
    await c.post(`/v1/integrations/${integration}`, {
      title: 'Backup integration',
      description: 'Kept',
      scopes: ['space:content:read'],
      script: 'export default {}',
      organization: org.id,
      visibility: 'private',
      secrets: { key: 'sealed-value' },
    }),
  );
  ok(await c.post(`/v1/integrations/${integration}/installations`, { organization: org.id }));
  const translation = ok(await c.post(`${o}/translations`, { title: 'French', languages: ['fr'] }));

  const sp = `/v1/spaces/${space.id}`;
  const reads = [
    '/v1/user',
    '/v1/orgs',
    o,
    `${o}/members`,
    `${o}/members/${editorId}`,
    `${o}/members/${editorId}/teams`,
    `${o}/members/${editorId}/spaces`,
    `${o}/teams`,
    `${o}/teams/${team.id}`,
    `${o}/teams/${team.id}/members`,
    `${o}/collections`,
    `/v1/collections/${collection.id}`,
    `/v1/collections/${collection.id}/spaces`,
    `/v1/collections/${collection.id}/permissions/users`,
    `/v1/collections/${collection.id}/permissions/aggregate`,
    `${o}/spaces`,
    sp,
    `/v1/spaces/${other.id}`,
    `${sp}/permissions/users`,
    `${sp}/permissions/teams`,
    `${sp}/permissions/aggregate`,
    `${sp}/content`,
    `${sp}/content/pages`,
    `${sp}/content/page/${pages.start}`,
    `${sp}/content/page/${pages.start}?format=markdown`,
    `${sp}/content/path/install`,
    `${sp}/content/files`,
    `${sp}/content/files/${files[0]?.id}`,
    `${sp}/revisions/${revision}/files/${files[0]?.id}/download`,
    `${sp}/change-requests`,
    `${sp}/change-requests/${cr.id}`,
    `${sp}/change-requests/${cr.id}/content`,
    `${sp}/change-requests/${cr.id}/content/pages`,
    `${sp}/change-requests/${cr.id}/content/page/${pages.start}/links`,
    `${sp}/change-requests/${cr.id}/content/page/${pages.install}/backlinks`,
    `${sp}/change-requests/${cr.id}/requested-reviewers`,
    `${o}/sites`,
    s,
    `${s}/structure`,
    `${s}/site-spaces`,
    `${s}/sections`,
    `${s}/section-groups`,
    `${s}/redirects`,
    `${s}/redirect?source=/old`,
    `${s}/share-links`,
    `${s}/customization`,
    `${s}/site-spaces/${siteSpaces[0]?.id}/customization`,
    `${s}/published`,
    `${s}/publishing/auth`,
    `${s}/permissions/aggregate`,
    `${o}/openapi`,
    `${o}/openapi/pets`,
    `${o}/openapi/pets/versions`,
    `/v1/integrations/${integration}`,
    `/v1/integrations/${integration}/script`,
    `${sp}/integrations`,
    `${o}/translations`,
    `${o}/translations/${translation.id}`,
  ];
  return { token, reads };
}

const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: { '/pets': { get: { responses: { '200': { description: 'The pets' } } } } },
};

async function readAll(app: App, token: string, reads: string[]) {
  const client = new Client(app, token);
  const out: Record<string, { status: number; body: unknown }> = {};
  for (const url of reads) {
    const res = await client.get(url);
    out[url] = { status: res.status, body: withoutClock(res.body) };
  }
  return out;
}

describe('bindery backup / restore', () => {
  let source: FreshDatabase;
  let target: FreshDatabase;
  beforeAll(async () => {
    source = await freshDatabase('backup-src');
    target = await freshDatabase('backup-dst');
  });
  afterAll(async () => {
    await source?.drop();
    await target?.drop();
  });

  it('round trip: every kind of resource reads back the same from a backup taken while serving', async () => {
    const first = await open(source.url);
    let stop = false;
    let busyWrites = 0;
    try {
      const { token, reads } = await world(first.app, first.db);
      const before = await readAll(first.app, token, reads);
      for (const [url, res] of Object.entries(before)) expect(res.status, url).toBe(200);

      // Writes go on (in another organization) while the backup runs.
      const noisy = await findOrCreateUser(first.db, 'noise@backup.test', 'Noise');
      const noiseOrg = await createOrganization(first.db, { title: 'Noise' }, noisy.id);
      const noise = new Client(first.app, (await createToken(first.db, noisy.id)).token);
      const writer = (async () => {
        while (!stop) {
          const res = await noise.post(`/v1/orgs/${noiseOrg.id}/collections`, { title: `C${busyWrites}` });
          expect(res.status).toBe(201);
          busyWrites++;
        }
      })();

      const file = path.join(source.dir, 'bindery.backup');
      const backup = await bindery(source.url, 'backup', file);
      if (source.postgres) {
        expect(backup.code).toBe(1);
        expect(backup.stderr).toContain('pg_dump');
        expect(backup.stdout).toMatch(/^pg_dump --format=custom .*--dbname='postgres:\/\/[^:@]+@/);
        await execFileAsync('bash', ['-c', backup.stdout]);
      } else {
        expect(backup.code, backup.stderr).toBe(0);
        expect(JSON.parse(backup.stdout)).toMatchObject({ backup: file, migrations: expect.any(Number) });
        // The database being served cannot be restored over.
        const refused = await bindery(source.url, 'restore', file);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('in use');
        expect(refused.stderr).toContain('stop it');
      }
      stop = true;
      await writer;
      expect(busyWrites).toBeGreaterThan(0);
      expect(fs.statSync(file).size).toBeGreaterThan(0);

      const restore = await bindery(target.url, 'restore', file);
      if (target.postgres) {
        expect(restore.code).toBe(1);
        expect(restore.stdout).toMatch(/^pg_restore .*--dbname='postgres:\/\/[^:@]+@/);
        await execFileAsync('bash', ['-c', restore.stdout]);
      } else {
        expect(restore.code, restore.stderr).toBe(0);
        expect(JSON.parse(restore.stdout)).toMatchObject({ restored: path.resolve(target.url) });
      }

      const second = await open(target.url);
      try {
        const after = await readAll(second.app, token, reads);
        for (const url of reads) expect(after[url], url).toEqual(before[url]);
        // The writes made during the backup: a consistent prefix of them, each collection whole.
        const noiseList = await noise.get(`/v1/orgs/${noiseOrg.id}/collections?limit=1000`);
        const restoredNoise = await new Client(second.app, noise.token).get(
          `/v1/orgs/${noiseOrg.id}/collections?limit=1000`,
        );
        expect(restoredNoise.status).toBe(200);
        expect(restoredNoise.body.count).toBeLessThanOrEqual(noiseList.body.count);
      } finally {
        await second.app.close();
        await second.db.destroy();
      }
    } finally {
      stop = true;
      await first.app.close();
      await first.db.destroy();
    }
  }, 300_000);

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'refuses what is not a Bindery database, and existing files',
    async () => {
      const junk = path.join(source.dir, 'junk.sqlite');
      fs.writeFileSync(junk, 'not a database at all');
      const notDb = await bindery(path.join(source.dir, 'new.sqlite'), 'restore', junk);
      expect(notDb.code).toBe(1);
      expect(notDb.stderr).toContain('is not a Bindery database');
      // A SQLite file of something else.
      const other = path.join(source.dir, 'other.sqlite');
      const { default: SQLite } = await import('better-sqlite3');
      const foreign = new SQLite(other);
      foreign.exec('create table t (x)');
      foreign.close();
      const foreignRes = await bindery(path.join(source.dir, 'new.sqlite'), 'restore', other);
      expect(foreignRes.code).toBe(1);
      expect(foreignRes.stderr).toContain('no migrations table');
      expect(fs.existsSync(path.join(source.dir, 'new.sqlite'))).toBe(false);
      // Backups never overwrite a file.
      const exists = await bindery(source.url, 'backup', other);
      expect(exists.code).toBe(1);
      expect(exists.stderr).toContain('exists');
      expect((await bindery(source.url, 'backup')).code).toBe(2);
    },
    240_000, // four CLI runs, each a fresh Node process: slow on a busy machine
  );
});
