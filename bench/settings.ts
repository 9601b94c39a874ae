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
 * Mixed traffic (bench/mixed.ts): BENCH_MIXED_ORGS (50), BENCH_MIXED_SPACES (spaces per organization,
 * 20), BENCH_MIXED_PAGES (pages per space, 5), BENCH_MIXED_DURATION (s of each of the mix and the
 * read-only mix, split over 2 interleaved rounds, 10) after BENCH_MIXED_WARMUP s of each (3), BENCH_MIXED_WRITE_SHARE (0.1), BENCH_MIXED=0
 * (skip the mixed traffic in `npm run bench`).
 * Autosave (bench/traffic-autosave.ts): BENCH_AUTOSAVES (timed batch edits per space size, 100; 0: skip).
 *
 * BENCH_BUILD=0 (skip building dist/) is read where the build is checked (bench/processes.ts);
 * BENCH_CPU_PROF=<folder> makes each Bindery process write a V8 CPU profile there when it stops.
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
export const MIXED = process.env.BENCH_MIXED !== '0';
export const MIXED_ORGS = positiveNumber('BENCH_MIXED_ORGS', 50);
export const MIXED_SPACES = positiveNumber('BENCH_MIXED_SPACES', 20);
export const MIXED_PAGES = positiveNumber('BENCH_MIXED_PAGES', 5);
export const MIXED_DURATION = positiveNumber('BENCH_MIXED_DURATION', 10);
/** Warm-up of each mix: a fresh server's first requests over 1,000 spaces are cold (JIT, caches, pools). */
export const MIXED_WARMUP = positiveNumber('BENCH_MIXED_WARMUP', 3);
export const MIXED_WRITE_SHARE = positiveNumber('BENCH_MIXED_WRITE_SHARE', 0.1);
export const AUTOSAVES = Number(process.env.BENCH_AUTOSAVES ?? 100);
/** Only the endpoints whose name matches this regular expression (for quick A/B runs). */
export const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}
