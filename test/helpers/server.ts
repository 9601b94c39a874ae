/**
 * The real server as a child process (`node bin/bindery.js serve`), as an operator runs it, on
 * loopback; its address is read from the one human line it prints on stderr.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';

export const bin = path.resolve('bin/bindery.js');

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `bindery serve` on `databaseUrl` (PORT 0 unless `env` sets one) and waits until it listens. */
export async function serveProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      JOB_CONCURRENCY: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 120_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /Bindery listening on (http:\/\/127\.0\.0\.1:\d+) — API reference: (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        expect(m[2]).toBe(`${m[1]}/docs`);
        resolve(m[1] as string);
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  return { child, base, stderr: () => stderr, exited };
}
