/**
 * The CLI's changes are recorded like the API's: `bindery bootstrap` records `organization.created`
 * and `token.created` in the new organization, and `bindery token create|revoke` record
 * `token.created` / `token.revoked` in every organization of the token's user, as done by that user
 * from a script (`source: script`), never with the token's secret. The CLI runs as a user runs it (a
 * child process) on this run's database (PostgreSQL when configured, else a SQLite file), and the
 * audit log is read through the API.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Client, createHarness, type Harness } from '../helpers/app.js';
import { auditEvents, recorded } from '../helpers/audit.js';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-cli-events-'));
const databaseUrl = inject('databaseUrl') ?? path.join(dir, 'cli.sqlite');

async function bindery(...args: string[]): Promise<string> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
  const { stdout } = await run(process.execPath, [path.resolve('bin/bindery.js'), ...args], { env });
  return stdout;
}

let h: Harness;
beforeAll(async () => {
  // The CLI migrates the database first (a fresh SQLite file here); the app then opens it.
  const email = `cli-${newId(8).toLowerCase()}@example.test`;
  boot = JSON.parse(await bindery('bootstrap', '--email', email, '--name', 'Ops', '--org', 'Acme'));
  bootEmail = email;
  h = await createHarness({ ownDatabase: databaseUrl });
}, 120_000);
afterAll(async () => {
  await h?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let boot: { token: string; userId: string; organizationId: string };
let bootEmail: string;

describe('CLI events', () => {
  it('bootstrap records organization.created and token.created by its user, from a script', async () => {
    const ops = new Client(h.app, boot.token);
    const org = boot.organizationId;
    expect((await auditEvents(ops, org)).map((e) => e.action)).toEqual(['token.created', 'organization.created']);
    await recorded(ops, org, 'organization.created', {
      actor: boot.userId,
      target: { type: 'organization', id: org },
      source: 'script',
    });
    const token = await recorded(ops, org, 'token.created', {
      actor: boot.userId,
      target: { type: 'api-token', id: expect.any(String) },
      source: 'script',
    });
    expect(token.payload.object).toMatchObject({ object: 'api-token', user: boot.userId, revokedAt: null });
    expect(JSON.stringify(token.payload)).not.toContain(boot.token);
  }, 60_000);

  it('token create and revoke record token.created and token.revoked in each organization of the user', async () => {
    const second = JSON.parse(await bindery('bootstrap', '--email', bootEmail, '--name', 'Ops', '--org', 'Beta'));
    const created = JSON.parse(await bindery('token', 'create', '--email', bootEmail, '--scopes', 'organization:read'));
    await bindery('token', 'revoke', created.tokenId);
    // Revoking it again changes nothing and records nothing.
    await bindery('token', 'revoke', created.tokenId);

    const ops = new Client(h.app, boot.token);
    for (const org of [boot.organizationId, second.organizationId]) {
      const creations = await auditEvents(ops, org, 'token.created');
      expect(creations[0]).toMatchObject({ target: { id: created.tokenId }, actor: { id: boot.userId } });
      const revoked = await recorded(ops, org, 'token.revoked', {
        actor: boot.userId,
        target: { type: 'api-token', id: created.tokenId },
        source: 'script',
      });
      expect(revoked.payload.object).toMatchObject({ scopes: ['organization:read'], revokedAt: expect.any(String) });
    }
  }, 90_000);
});
