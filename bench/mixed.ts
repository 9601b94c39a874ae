/**
 * Mixed traffic (issue #35): many organizations writing while others read. Over
 * BENCH_MIXED_ORGS organizations (50) with 4 tokens each (200) and BENCH_MIXED_SPACES spaces each
 * (20; seeded by bench/mixed-seed.ts), autocannon (BENCH_CONNECTIONS connections, 50) sends requests
 * drawn one by one (bench/mixed-traffic.ts): 90 % reads spread over organizations, spaces, members,
 * change requests, pages and search, 10 % writes (autosaves, comments, renames) in random
 * organizations. The same read mix with no writes is loaded in the same interleaved rounds
 * (reads, mix, reads, mix; BENCH_MIXED_DURATION s of each after BENCH_MIXED_WARMUP s of warm-up each), so
 * the ratio of their throughputs compares measurements seconds apart.
 *
 * Goals: the mix's throughput at least {@link RATIO_GOAL} of the read mix's, and its p99 under
 * {@link P99_GOAL_MS} ms. On PostgreSQL the same again on a WORKERS=2 server, then the stale check
 * (bench/mixed-stale.ts) on it.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database.js';
import { bootstrapMixed, type MixedWorld, seedMixed } from './mixed-seed.js';
import { checkStale, type StaleCheck } from './mixed-stale.js';
import { mixedRequests, type RequestKind, settleLedger, WRITE_KINDS, WriteLedger } from './mixed-traffic.js';
import { processTree, type Server, startBindery } from './processes.js';
import { CONNECTIONS, HOST, MIXED_DURATION, MIXED_WARMUP, MIXED_WRITE_SHARE } from './settings.js';
import { log, sleep } from './util.js';

export const RATIO_GOAL = 0.4;
export const P99_GOAL_MS = 25;
/** The scale-out row: two worker processes (PostgreSQL only). */
export const MIXED_WORKERS = 2;
/** BENCH_CACHE_CAUSES=1: the one-process server counts why its response cache missed, by route (src/http/cache-diagnosis.ts). */
const CACHE_CAUSES = process.env.BENCH_CACHE_CAUSES === '1';

export interface MixMeasurement {
  rps: number;
  p50: number;
  p99: number;
  p99Reads: number;
  p99Writes: number;
  writesPerSecond: number;
  responses: number;
  /** Server CPU (all its processes) per response, µs. */
  cpuPerRequest: number;
  /** SQL statements per response (NaN with several workers: not counted there). */
  queriesPerRequest: number;
  /** Of the lookups in the response cache, the share answered from memory (1 process only; NaN else). */
  hitShare: number;
  failures: string | null;
  /** Each kind of request: how many were answered, p50 and p99. */
  kinds: { kind: string; count: number; p50: number; p99: number }[];
}

export interface MixRun {
  /** `1 process` or `WORKERS=2`. */
  processes: string;
  reads: MixMeasurement;
  mixed: MixMeasurement;
  stale?: StaleCheck;
}

export interface MixedResult {
  label: string;
  organizations: number;
  tokens: number;
  spaces: number;
  seededSeconds: number;
  runs: MixRun[];
}

interface Segment {
  reads: number[];
  writes: number[];
  byKind: Record<string, number[]>;
  seconds: number;
  codes: Record<string, number>;
  errors: number;
  cpuMicros: number;
  queries: number;
  hits: number;
  misses: number;
  /** With BENCH_CACHE_CAUSES=1: per route, per outcome of the response cache (src/http/cache-diagnosis.ts). */
  causes: Causes | null;
}

type Causes = Map<string, Map<string, number>>;

function percentile(samples: number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

async function loadMix(
  server: Server,
  world: MixedWorld,
  ledger: WriteLedger,
  writeShare: number,
  seconds: number,
  seed: number,
): Promise<Segment> {
  const writeKinds = new Set<RequestKind>(WRITE_KINDS);
  const segment: Segment = {
    reads: [],
    writes: [],
    byKind: {},
    seconds: 0,
    codes: {},
    errors: 0,
    cpuMicros: 0,
    queries: 0,
    hits: Number.NaN,
    misses: Number.NaN,
    causes: null,
  };
  const before = {
    tree: processTree(server.pid),
    stats: await server.stats(),
    lookups: await cacheLookups(server),
    causes: await cacheCauses(server),
  };
  const url = new URL(server.baseUrl);
  if (url.hostname !== HOST) throw new Error(`refusing to load ${server.baseUrl}: only ${HOST} is benchmarked`);
  const instance = autocannon({
    url: server.baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: mixedRequests(world, writeShare, ledger, seed),
  });
  instance.on('response', (client: any, status: number, _bytes: number, responseTime: number) => {
    const kind = client.requestIterator?.context?.kind as RequestKind | undefined;
    (kind && writeKinds.has(kind) ? segment.writes : segment.reads).push(responseTime);
    if (kind) {
      const samples = segment.byKind[kind] ?? [];
      samples.push(responseTime);
      segment.byKind[kind] = samples;
    }
    segment.codes[status] = (segment.codes[status] ?? 0) + 1;
  });
  const result = await instance;
  // Requests cut off when the run stopped may still be running in the server: let them finish.
  await sleep(300);
  const after = {
    tree: processTree(server.pid),
    stats: await server.stats(),
    lookups: await cacheLookups(server),
    causes: await cacheCauses(server),
  };
  if (before.causes && after.causes) segment.causes = subtractCauses(after.causes, before.causes);
  if (before.lookups && after.lookups) {
    segment.hits = after.lookups.hit - before.lookups.hit;
    segment.misses = after.lookups.miss - before.lookups.miss;
  }
  await settleLedger(server.baseUrl, world, ledger);
  for (const failure of ledger.failures.splice(0)) log(`  !! ${failure}`);
  segment.seconds = result.duration;
  segment.errors = result.errors + result.timeouts;
  segment.cpuMicros = after.tree.cpuMicros - before.tree.cpuMicros;
  segment.queries = before.stats && after.stats ? after.stats.queries - before.stats.queries : Number.NaN;
  return segment;
}

function summarize(segments: Segment[]): MixMeasurement {
  const reads = segments.flatMap((s) => s.reads);
  const writes = segments.flatMap((s) => s.writes);
  const all = [...reads, ...writes];
  const seconds = segments.reduce((sum, s) => sum + s.seconds, 0);
  const codes: Record<string, number> = {};
  for (const s of segments) for (const [c, n] of Object.entries(s.codes)) codes[c] = (codes[c] ?? 0) + n;
  const bad = Object.entries(codes).filter(([c]) => !c.startsWith('2'));
  const errors = segments.reduce((sum, s) => sum + s.errors, 0);
  const byKind: Record<string, number[]> = {};
  for (const s of segments) for (const [k, v] of Object.entries(s.byKind)) byKind[k] = [...(byKind[k] ?? []), ...v];
  return {
    kinds: Object.entries(byKind)
      .map(([kind, v]) => ({ kind, count: v.length, p50: percentile(v, 0.5), p99: percentile(v, 0.99) }))
      .sort((a, b) => b.count - a.count),
    rps: all.length / seconds,
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    p99Reads: percentile(reads, 0.99),
    p99Writes: percentile(writes, 0.99),
    writesPerSecond: writes.length / seconds,
    responses: all.length,
    cpuPerRequest: segments.reduce((sum, s) => sum + s.cpuMicros, 0) / all.length,
    queriesPerRequest: segments.reduce((sum, s) => sum + s.queries, 0) / all.length,
    hitShare: segments.reduce((sum, s) => sum + s.hits, 0) / segments.reduce((sum, s) => sum + s.hits + s.misses, 0),
    failures:
      bad.length + errors > 0
        ? `${bad.map(([c, n]) => `${c}x${n}`).join(', ') || 'no non-2xx'}, ${errors} errors/timeouts`
        : null,
  };
}

/** The metrics token of the servers this bench starts (to read their response cache's lookups). */
const METRICS_TOKEN = 'bench-mixed-metrics-token';

/** The response cache's lookups so far (from /metrics; null with several processes, which answer for one). */
async function cacheLookups(server: Server): Promise<{ hit: number; miss: number } | null> {
  if (server.name !== 'bindery') return null;
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) return null;
  const text = await res.text();
  const count = (outcome: string) =>
    Number(
      new RegExp(`^bindery_response_cache_lookups_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  return { hit: count('hit'), miss: count('miss') };
}

/** With BENCH_CACHE_CAUSES=1, the response cache's outcomes per route so far (from /metrics). */
async function cacheCauses(server: Server): Promise<Causes | null> {
  if (!CACHE_CAUSES || server.name !== 'bindery') return null;
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) return null;
  const causes: Causes = new Map();
  const line = /^bindery_response_cache_diagnosis_total\{route="([^"]*)",outcome="([^"]*)"\} (\S+)$/gm;
  for (const [, route, outcome, count] of (await res.text()).matchAll(line)) {
    const outcomes = causes.get(route as string) ?? new Map<string, number>();
    outcomes.set(outcome as string, Number(count));
    causes.set(route as string, outcomes);
  }
  return causes;
}

function subtractCauses(after: Causes, before: Causes): Causes {
  const diff: Causes = new Map();
  for (const [route, outcomes] of after) {
    const d = new Map<string, number>();
    for (const [outcome, n] of outcomes) d.set(outcome, n - (before.get(route)?.get(outcome) ?? 0));
    diff.set(route, d);
  }
  return diff;
}

/** Logs, per route, the requests and the share of each outcome of the response cache in `segments`. */
function logCauses(label: string, segments: Segment[]): void {
  const total: Causes = new Map();
  for (const s of segments) {
    for (const [route, outcomes] of s.causes ?? []) {
      const t = total.get(route) ?? new Map<string, number>();
      for (const [outcome, n] of outcomes) t.set(outcome, (t.get(outcome) ?? 0) + n);
      total.set(route, t);
    }
  }
  if (total.size === 0) return;
  log(`[${label}] response cache by route: lookups, then each outcome's share`);
  const rows = [...total].map(([route, o]) => [route, o, [...o.values()].reduce((a, b) => a + b, 0)] as const);
  for (const [route, outcomes, n] of rows.sort((a, b) => b[2] - a[2])) {
    const shares = [...outcomes]
      .filter(([, c]) => c > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([o, c]) => `${o} ${((100 * c) / n).toFixed(1)} %`);
    log(`  ${route}  ${n}  ${shares.join(', ')}`);
  }
}

/** The read mix and the mix with writes, after a warm-up of each, in two interleaved rounds. */
async function measureMix(server: Server, world: MixedWorld, ledger: WriteLedger, label: string): Promise<MixRun> {
  log(`[${label}] warm-up`);
  await loadMix(server, world, ledger, 0, MIXED_WARMUP, 1);
  await loadMix(server, world, ledger, MIXED_WRITE_SHARE, MIXED_WARMUP, 2);
  const reads: Segment[] = [];
  const mixed: Segment[] = [];
  for (let round = 0; round < 2; round++) {
    log(`[${label}] round ${round + 1}: read mix, then ${MIXED_WRITE_SHARE * 100} % writes`);
    reads.push(await loadMix(server, world, ledger, 0, MIXED_DURATION / 2, 10 + round));
    mixed.push(await loadMix(server, world, ledger, MIXED_WRITE_SHARE, MIXED_DURATION / 2, 20 + round));
  }
  logCauses(`${label} read mix`, reads);
  logCauses(`${label} mix`, mixed);
  return { processes: label, reads: summarize(reads), mixed: summarize(mixed) };
}

/** Seeds a fresh database at `databaseUrl` and measures the mixed traffic on it. */
export async function benchMixed(label: string, databaseUrl: string): Promise<MixedResult> {
  log(`\n[${label} mixed] seeding through the API`);
  const ids = bootstrapMixed(databaseUrl);
  let world: MixedWorld;
  const seeder = await startBindery(databaseUrl);
  try {
    world = await seedMixed(seeder.baseUrl, ids, databaseUrl, (line) => log(`[${label} mixed] ${line}`));
  } finally {
    await seeder.stop();
  }
  log(`[${label} mixed] seeded in ${world.seconds.toFixed(0)} s`);
  const postgres = isPostgresUrl(databaseUrl);
  if (postgres) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('analyze');
    await client.end();
  }
  const ledger = new WriteLedger();
  const runs: MixRun[] = [];
  const single = await startBindery(databaseUrl, 1, {
    METRICS_TOKEN,
    ...(CACHE_CAUSES ? { RESPONSE_CACHE_DIAGNOSIS: '1' } : {}),
  });
  try {
    runs.push(await measureMix(single, world, ledger, '1 process'));
  } finally {
    await single.stop();
  }
  if (postgres) {
    const cluster = await startBindery(databaseUrl, MIXED_WORKERS, { BENCH_TAG_PROCESS: '1', METRICS_TOKEN });
    try {
      ledger.changeRequests.clear();
      ledger.titles.clear();
      const run = await measureMix(cluster, world, ledger, `WORKERS=${MIXED_WORKERS}`);
      log(`[${label} mixed] stale check through both processes`);
      run.stale = await checkStale(cluster.baseUrl, world, ledger);
      runs.push(run);
    } finally {
      await cluster.stop();
    }
  }
  const spaces = world.organizations.reduce((sum, o) => sum + o.spaces.length, 0);
  return {
    label,
    organizations: world.organizations.length,
    tokens: world.organizations.reduce((sum, o) => sum + o.tokens.length, 0),
    spaces,
    seededSeconds: world.seconds,
    runs,
  };
}
