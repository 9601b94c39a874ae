/** The `bindery` command, run as a user runs it: a child process on a fresh SQLite file. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-cli-'));
const env = { ...process.env, DATABASE_URL: path.join(dir, 'cli.sqlite'), LOG_LEVEL: 'silent' };
const bin = path.resolve('bin/bindery.js');

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function bindery(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('bindery CLI', () => {
  it('bootstrap prints exactly one JSON line; token create and revoke work', async () => {
    const boot = await bindery('bootstrap', '--email', 'Ops@Example.com', '--name', 'Ops', '--org', 'Acme');
    expect(boot.code).toBe(0);
    const lines = boot.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0] as string);
    expect(Object.keys(out).sort()).toEqual(['organizationId', 'token', 'userId']);

    const again = JSON.parse(
      (await bindery('bootstrap', '--email', 'ops@example.com', '--name', 'Ops', '--org', 'Beta')).stdout,
    );
    expect(again.userId).toBe(out.userId);
    expect(again.organizationId).not.toBe(out.organizationId);

    const created = await bindery(
      'token',
      'create',
      '--email',
      'ops@example.com',
      '--scopes',
      'organization:read',
      '--expires',
      '30d',
    );
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout);
    expect(token.token).toMatch(/^bnd_/);
    expect(Date.parse(token.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    expect((await bindery('token', 'revoke', token.tokenId)).code).toBe(0);
    expect((await bindery('token', 'revoke', 'nope')).code).toBe(2);
  }, 240_000); // each command is a fresh Node process compiling the sources: slow on a busy machine

  it('refuses bad input with a message and exit code 2', async () => {
    const missing = await bindery('bootstrap', '--email', 'x@example.com');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name');
    const scope = await bindery('token', 'create', '--email', 'ops@example.com', '--scopes', 'everything');
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('everything');
    const unknown = await bindery('token', 'create', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(2);
    const badEnv = await run(process.execPath, [bin, 'migrate'], { env: { ...env, PORT: 'x' } }).catch((e) => e);
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('PORT');
  }, 240_000); // each command is a fresh Node process compiling the sources: slow on a busy machine
});
