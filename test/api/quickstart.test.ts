/**
 * The README's quick start, run as a reader runs it: the lines between the `quickstart` markers,
 * with bash, against a real server (child process) on a database of its own. The only edit is the
 * one a reader makes: `BINDERY=` set to where this server listens. Each command must succeed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { freePort } from '../helpers/ports.js';
import { type ServerProcess, serveProcess } from '../helpers/server.js';

const execFileAsync = promisify(execFile);

/** The commands of the quick start (a line ending in `\` continues on the next); comments and blanks dropped. */
function quickStartCommands(readme: string): string[] {
  const match = /<!-- quickstart:begin -->\s*```sh\n([\s\S]*?)```\s*<!-- quickstart:end -->/.exec(readme);
  if (!match) throw new Error('README.md has no quickstart block');
  const commands: string[] = [];
  let current = '';
  for (const line of (match[1] as string).split('\n')) {
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += `${line}\n`;
    if (!line.endsWith('\\')) {
      commands.push(current.trimEnd());
      current = '';
    }
  }
  return commands;
}

describe('README quick start', () => {
  let fresh: FreshDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    fresh = await freshDatabase('quickstart');
    const port = await freePort();
    // PUBLIC_URL as a reader's default (http://HOST:PORT): the published URL must open.
    server = await serveProcess(fresh.url, { PORT: String(port) });
  }, 180_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await fresh?.drop();
  });

  it('every command succeeds, and the page, the site and the answer are there', async () => {
    const commands = quickStartCommands(fs.readFileSync(path.resolve('README.md'), 'utf8'));
    expect(commands.length).toBeGreaterThanOrEqual(12);
    expect(commands[0]).toBe('BINDERY=http://127.0.0.1:8080');
    // What a reader does when the server listens elsewhere: edit that one line.
    const script = [`BINDERY=${server.base}`, ...commands.slice(1)]
      .map((command, i) => `${command}\nrc=$?; echo; echo "@@step ${i} rc=$rc"; [ "$rc" -eq 0 ] || exit 1`)
      .join('\n');
    const run = await execFileAsync('bash', ['-c', `set -uo pipefail\n${script}`], {
      env: { ...process.env, DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error) => error as { stdout: string; stderr: string; code: number });
    const steps = [...run.stdout.matchAll(/@@step (\d+) rc=(\d+)/g)].map((m) => Number(m[2]));
    expect(steps, `${run.stdout}\n${run.stderr}`).toEqual(commands.map(() => 0));

    // Each command's output, by the text of the command that printed it.
    const outputs = run.stdout.split(/\n@@step \d+ rc=\d+\n/);
    const outputOf = (needle: string) => outputs[commands.findIndex((c) => c.includes(needle))] ?? '';
    expect(JSON.parse(outputOf('/content" \\')).object).toBe('change-request');
    expect(JSON.parse(outputOf('/merge"'))).toMatchObject({ result: 'merge', revision: expect.any(String) });
    const page = JSON.parse(outputOf('content/path/getting-started'));
    expect(page.title).toBe('Getting started');
    expect(page.markdown).toContain('Install Bindery with `npm install`');
    const published = outputOf('curl -fsS "$PUBLISHED"');
    expect(published).toContain('<html');
    expect(published).toContain('Getting started');
    const answer = JSON.parse(outputOf('/ask"'));
    expect(answer.answer.answer.markdown).toContain('npm install');
    expect(answer.answer.sources.length).toBeGreaterThan(0);
  }, 300_000); // a dozen Node processes (npx, node -pe): slow on a busy machine
});
