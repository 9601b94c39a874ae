/**
 * Why the mix's reads miss the response cache, measured so that two builds can be compared on a
 * busy machine: the mixed traffic's requests (bench/mixed-traffic.ts) are sent as a fixed number
 * of requests (REPLAY_REQUESTS, 10,000, after REPLAY_WARM read-only ones, 3,000) at low concurrency
 * (REPLAY_CONNECTIONS, 4), from one seed, against a server on a copy of one seeded SQLite database,
 * and the server's response cache reports each lookup's outcome by route
 * (`RESPONSE_CACHE_DIAGNOSIS=1`, src/http/cache-diagnosis.ts). The order of reads and writes is
 * then the same in every run, so the share of lookups whose answer a write dropped does not depend
 * on the machine's speed (the shares of first lookups and of answers past their 10 s age do).
 *
 *   BENCH_MIXED_SPACES=5 npx tsx bench/mixed-replay.ts seed /tmp/mix.db /tmp/mix-world.json
 *   npx tsx bench/mixed-replay.ts run /tmp/mix.db /tmp/mix-world.json <label>
 *
 * `run` may be started from another checkout's bench/ (its own build) on the same seed.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type autocannon from 'autocannon';
import { bootstrapMixed, type MixedWorld, seedMixed } from './mixed-seed.js';
import { mixedRequests, settleLedger, WriteLedger } from './mixed-traffic.js';
import { cleanUp, ensureBuild, processTree, type Server, startBindery } from './processes.js';

const METRICS_TOKEN = 'bench-replay-metrics-token';
const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

type Outcomes = Map<string, Map<string, number>>;

async function outcomes(server: Server): Promise<Outcomes> {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const out: Outcomes = new Map();
  const line = /^bindery_response_cache_diagnosis_total\{route="([^"]*)",outcome="([^"]*)"\} (\S+)$/gm;
  for (const [, route, outcome, n] of (await res.text()).matchAll(line)) {
    const of = out.get(route as string) ?? new Map<string, number>();
    of.set(outcome as string, Number(n));
    out.set(route as string, of);
  }
  return out;
}

/** Sends `n` requests of the mix with `writeShare` writes, `connections` at a time. */
async function load(server: Server, world: MixedWorld, ledger: WriteLedger, n: number, writeShare: number) {
  const [generator] = mixedRequests(world, writeShare, ledger, 1 + writeShare * 10) as [
    Required<Pick<autocannon.Request, 'setupRequest' | 'onResponse'>>,
  ];
  let left = n;
  const connection = async () => {
    while (left-- > 0) {
      const context: Record<string, unknown> = {};
      const request = generator.setupRequest({} as autocannon.RequestParams, context) as autocannon.RequestParams;
      const res = await fetch(server.baseUrl + request.path, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body as string | undefined,
      });
      generator.onResponse(res.status, await res.text(), context);
    }
  };
  await Promise.all(Array.from({ length: count('REPLAY_CONNECTIONS', 4) }, connection));
  await settleLedger(server.baseUrl, world, ledger);
}

async function run(database: string, worldFile: string, label: string): Promise<void> {
  // A copy per run: every run starts from the same data.
  const copy = `${database}.${label}.db`;
  copyFileSync(database, copy);
  for (const suffix of ['-wal', '-shm'])
    if (existsSync(database + suffix)) copyFileSync(database + suffix, copy + suffix);
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as MixedWorld;
  const server = await startBindery(copy, 1, { METRICS_TOKEN, RESPONSE_CACHE_DIAGNOSIS: '1' });
  const ledger = new WriteLedger();
  await load(server, world, ledger, count('REPLAY_WARM', 3_000), 0);
  const before = await outcomes(server);
  const cpuBefore = processTree(server.pid).cpuMicros;
  const started = Date.now();
  const n = count('REPLAY_REQUESTS', 10_000);
  await load(server, world, ledger, n, 0.1);
  const seconds = (Date.now() - started) / 1000;
  const cpu = (processTree(server.pid).cpuMicros - cpuBefore) / n;
  const after = await outcomes(server);
  await server.stop();
  console.log(
    `[${label}] ${n} requests of the mix in ${seconds.toFixed(0)} s (${(n / seconds).toFixed(0)}/s), ` +
      `${ledger.writes} writes answered, server CPU ${cpu.toFixed(0)} µs/request`,
  );
  console.log(`[${label}] response cache by route: lookups, then each outcome's share`);
  for (const [route, of] of after) {
    const shares = [...of]
      .map(([outcome, c]) => [outcome, c - (before.get(route)?.get(outcome) ?? 0)] as const)
      .filter(([, c]) => c > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = shares.reduce((sum, [, c]) => sum + c, 0);
    if (total === 0) continue;
    console.log(
      `  ${route}  ${total}  ${shares.map(([o, c]) => `${o} ${((100 * c) / total).toFixed(1)} %`).join(', ')}`,
    );
  }
}

async function main(): Promise<void> {
  const [mode, database, worldFile, label] = process.argv.slice(2);
  if (!database || !worldFile || (mode !== 'seed' && mode !== 'run')) {
    throw new Error('usage: mixed-replay.ts seed|run <sqlite file> <world.json> [label]');
  }
  ensureBuild();
  if (mode === 'seed') {
    const ids = bootstrapMixed(database);
    const seeder = await startBindery(database);
    try {
      writeFileSync(worldFile, JSON.stringify(await seedMixed(seeder.baseUrl, ids, database, console.log)));
    } finally {
      await seeder.stop();
    }
  } else await run(database, worldFile, label ?? 'replay');
}

try {
  await main();
} finally {
  await cleanUp();
}
