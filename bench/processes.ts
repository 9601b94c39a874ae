/**
 * The bench's child processes: the servers it measures and their clean-up.
 *
 * - Each server runs in its own process, with bench/instrument.mjs preloaded: it counts SQL
 *   statements at the driver and reports them with CPU time and RSS over IPC.
 * - Bindery runs from the compiled build (`npm run build` first when dist/ is older than src/;
 *   BENCH_BUILD=0 skips).
 * - Children are killed and temporary databases removed on every way out (importing this module
 *   installs the handlers).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOST, ROOT } from './settings.js';
import { log, sleep } from './util.js';

const CLOCK_TICK_MICROS = 10_000; // /proc reports CPU time in USER_HZ (100 per second on Linux)

// ---------------------------------------------------------------------------------------------
// Clean-up: children are killed and temporary databases removed on every way out.

const children = new Map<ChildProcess, Promise<unknown>>();
const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;

/** Adds a task to the clean-up (tasks run last added first, after the children have exited). */
export function onCleanUp(task: () => Promise<void> | void): void {
  cleanups.push(task);
}

export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    const exits = [...children].map(([child, exited]) => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      return exited.finally(() => clearTimeout(timer));
    });
    await Promise.all(exits);
    for (const task of cleanups.reverse()) {
      try {
        await task();
      } catch (error) {
        log(`bench: clean-up failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

process.on('exit', () => {
  for (const child of children.keys()) child.kill('SIGKILL');
});
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    log(`bench: ${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void cleanUp().finally(() => process.exit(1));
  });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\nbench: ${signal}, stopping`);
    setTimeout(() => process.exit(130), 10_000).unref();
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Child processes

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface Stats {
  queries: number;
  cpuMicros: number;
  rss: number;
}

export interface Server {
  name: string;
  baseUrl: string;
  pid: number;
  /** Counters of the server process (IPC); null when it has none (the ceiling). */
  stats(): Promise<Stats | null>;
  /** Sets (null: removes) an environment variable in the server process (IPC, instrumented servers only). */
  setEnv(key: string, value: string | null): Promise<void>;
  stop(): Promise<void>;
}

/** CPU time (µs) and RSS (bytes) of `pid` and all its descendants, from /proc. */
export function processTree(pid: number): { cpuMicros: number; rss: number } {
  let cpuMicros = 0;
  let rss = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuMicros += (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MICROS;
      rss += Number(fields[21]) * 4096;
      const kids = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const kid of kids ? kids.split(' ') : []) visit(Number(kid));
    } catch {
      // exited meanwhile
    }
  };
  visit(pid);
  return { cpuMicros, rss };
}

async function startServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST },
    // Bindery's stdout is its JSON log at info (as in production): written, then thrown away.
    stdio: ['ignore', name.startsWith('bindery') ? 'ignore' : 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? -1 : null));
    });
  });
  children.set(child, exited);
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(`  [${name}] ${line}`);
    });
  }
  let asked = 0;
  const waiting = new Map<number, (stats: Stats) => void>();
  child.on('message', (message: { type?: string; id?: number } & Stats) => {
    if ((message?.type === 'stats' || message?.type === 'env') && message.id !== undefined) {
      waiting.get(message.id)?.(message);
    }
  });
  const stats = async (): Promise<Stats | null> => {
    // With WORKERS > 1 the IPC channel reaches the primary, which runs no queries: not counted.
    if (!args.includes('./bench/instrument.mjs') || (env.WORKERS ?? '1') !== '1') return null;
    const id = ++asked;
    const answer = new Promise<Stats>((resolve) => waiting.set(id, resolve));
    child.send({ type: 'stats', id });
    const result = await Promise.race([answer, sleep(5_000).then(() => null)]);
    waiting.delete(id);
    return result;
  };

  const setEnv = async (key: string, value: string | null): Promise<void> => {
    if (!args.includes('./bench/instrument.mjs')) throw new Error(`${name} cannot set ${key}: not instrumented`);
    const id = ++asked;
    const answer = new Promise<unknown>((resolve) => waiting.set(id, resolve));
    child.send({ type: 'env', id, key, value });
    const done = await Promise.race([answer.then(() => true), sleep(5_000).then(() => false)]);
    waiting.delete(id);
    if (!done) throw new Error(`${name} did not confirm setting ${key}`);
  };

  const baseUrl = `http://${HOST}:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  let died = false;
  void exited.then(() => {
    died = true;
  });
  for (;;) {
    if (died) throw new Error(`${name} exited before becoming ready (code ${child.exitCode})`);
    try {
      const response = await fetch(`${baseUrl}${readyPath}`);
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} not ready after 60 s`);
    }
    await sleep(100);
  }
  return { name, baseUrl, pid: child.pid as number, stats, setEnv, stop };
}

export function startBindery(databaseUrl: string, workers = 1, env: Record<string, string> = {}): Promise<Server> {
  return startServer(
    workers > 1 ? `bindery x${workers}` : 'bindery',
    [
      // BENCH_CPU_PROF=<folder>: each Bindery process writes a V8 CPU profile there when it stops.
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      './bench/instrument.mjs',
      'bin/bindery.js',
      'serve',
    ],
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'http://bench.invalid',
      RATE_LIMIT_PER_MINUTE: '0',
      WORKERS: String(workers),
      ...env,
    },
    '/readyz',
  );
}

export function startCeiling(payloadFile: string): Promise<Server> {
  return startServer('ceiling', ['--import', 'tsx', 'bench/ceiling.ts'], { BENCH_PAYLOADS: payloadFile }, '/');
}

/** Builds dist/ when it is missing or older than src/ (the bench measures the production build). */
export function ensureBuild(): void {
  if (process.env.BENCH_BUILD === '0') return;
  const newest = (dir: string): number => {
    let latest = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) latest = Math.max(latest, fs.statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
    return latest;
  };
  const built = path.join(ROOT, 'dist/cli.js');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  log('building dist/ (npm run build)...');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
