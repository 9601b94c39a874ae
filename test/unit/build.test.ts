/**
 * The production build: `tsc -p tsconfig.build.json` output runs on plain Node (migrations, the CLI,
 * the server and its /docs assets), and bin/bindery.js picks the build or the sources as documented.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-build-'));
// Inside the repository, so that the compiled files resolve packages from its node_modules as dist/ does.
fs.mkdirSync(path.resolve('node_modules/.cache'), { recursive: true });
const out = fs.mkdtempSync(path.resolve('node_modules/.cache/bindery-build-test-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

async function node(args: string[], env: Record<string, string>, cwd?: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env: { ...process.env, ...env }, cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts `node <args>` and resolves with the URL from Fastify's "Server listening at" log line. */
function serve(args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve({ url: match[1], child });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

describe('the compiled build', () => {
  beforeAll(async () => {
    const tsc = path.resolve('node_modules/typescript/bin/tsc');
    const result = await node([tsc, '-p', 'tsconfig.build.json', '--outDir', out], {});
    if (result.code !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
  }, 600_000);

  it('migrates, bootstraps and serves on plain Node, /docs assets included', async () => {
    const env = { DATABASE_URL: path.join(tmp, 'built.sqlite'), LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' };
    expect(fs.existsSync(path.join(out, 'cli.js'))).toBe(true);
    expect(fs.readdirSync(out).some((name) => name.endsWith('.ts'))).toBe(false);

    const migrate = await node([path.join(out, 'cli.js'), 'migrate'], env);
    expect(migrate.stderr).toMatch(/migrations applied: [1-9]/);
    const boot = await node(
      [path.join(out, 'cli.js'), 'bootstrap', '--email', 'b@example.test', '--name', 'B', '--org', 'Built'],
      env,
    );
    expect(boot.code).toBe(0);
    const { token, userId } = JSON.parse(boot.stdout);

    const { url, child } = await serve([path.join(out, 'cli.js'), 'serve'], env);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const me = await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ object: 'user', id: userId });
    const script = await fetch(`${url}/docs/redoc.standalone.js`);
    expect((await script.text()).length).toBeGreaterThan(500_000);

    child.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});

describe('bin/bindery.js', () => {
  // A copy of bin/ beside a stand-in dist/cli.js and src/cli.ts that say which one ran.
  const root = path.join(tmp, 'root');
  const bin = path.join(root, 'bin', 'bindery.js');
  const dist = path.join(root, 'dist', 'cli.js');
  const src = path.join(root, 'src', 'cli.ts');
  const modules = path.join(root, 'node_modules');

  beforeAll(() => {
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.copyFileSync(path.resolve('bin/bindery.js'), bin);
    fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  });

  function layout(options: { dist?: 'fresh' | 'stale'; src?: boolean; tsx?: boolean }) {
    fs.rmSync(path.dirname(dist), { recursive: true, force: true });
    fs.rmSync(path.dirname(src), { recursive: true, force: true });
    fs.rmSync(modules, { recursive: true, force: true });
    const past = new Date(Date.now() - 60_000);
    if (options.src) {
      fs.mkdirSync(path.dirname(src), { recursive: true });
      fs.writeFileSync(src, "const from: string = 'src';\nconsole.log(from);\n");
      fs.utimesSync(src, past, past);
    }
    if (options.dist) {
      fs.mkdirSync(path.dirname(dist), { recursive: true });
      fs.writeFileSync(dist, "console.log('dist');\n");
      const when = options.dist === 'fresh' ? new Date() : new Date(past.getTime() - 60_000);
      fs.utimesSync(dist, when, when);
    }
    if (options.tsx) fs.symlinkSync(path.resolve('node_modules'), modules, 'dir');
  }

  it('runs an up-to-date build, and the sources through tsx when the build is older or absent', async () => {
    layout({ dist: 'fresh', src: true, tsx: true });
    expect((await node([bin], {})).stdout.trim()).toBe('dist');
    layout({ dist: 'stale', src: true, tsx: true });
    expect((await node([bin], {})).stdout.trim()).toBe('src');
    layout({ src: true, tsx: true });
    expect((await node([bin], {})).stdout.trim()).toBe('src');
  }, 60_000);

  it('without tsx (a production install) runs the build, and says so when there is none', async () => {
    layout({ dist: 'fresh' });
    expect((await node([bin], {})).stdout.trim()).toBe('dist');
    layout({ dist: 'stale', src: true });
    const stale = await node([bin], {});
    expect(stale.stdout.trim()).toBe('dist');
    expect(stale.stderr).toContain('dist/ is older than src/');
    layout({ src: true });
    const none = await node([bin], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('npm run build');
  }, 60_000);
});
