/**
 * The bench's tunables, read from the environment once (every module of `npm run bench` takes them
 * from here):
 *
 * BENCH_DURATION (s per endpoint, default 4), BENCH_WARMUP (1), BENCH_CONNECTIONS (50),
 * BENCH_MEMBERS (100000), BENCH_WORKERS (cores), BENCH_WRITES (write operations timed, 30; 0: none),
 * BENCH_EVENT_OPS (operations per write path and mode in the events comparison, 300; 0: none) in
 * BENCH_EVENT_ROUNDS rounds (50), BENCH_ONLY (a regular expression: only the read endpoints it matches),
 * BENCH_UNCACHED (0: skip the reads with the response cache off).
 *
 * BENCH_BUILD=0 (skip building dist/) is read where the build is checked (bench/processes.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HOST = '127.0.0.1';
export const DURATION = positiveNumber('BENCH_DURATION', 4);
export const WARMUP = positiveNumber('BENCH_WARMUP', 1);
export const CONNECTIONS = positiveNumber('BENCH_CONNECTIONS', 50);
export const MEMBERS = positiveNumber('BENCH_MEMBERS', 100_000);
export const WORKERS = positiveNumber('BENCH_WORKERS', os.availableParallelism());
export const WRITES = Number(process.env.BENCH_WRITES ?? 30);
export const EVENT_OPS = Number(process.env.BENCH_EVENT_OPS ?? 300);
export const EVENT_ROUNDS = Number(process.env.BENCH_EVENT_ROUNDS ?? 50);
/** Whether the reads are measured a second time with the response cache off (BENCH_UNCACHED=0: not). */
export const UNCACHED = process.env.BENCH_UNCACHED !== '0';
/** Only the endpoints whose name matches this regular expression (for quick A/B runs). */
export const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}
