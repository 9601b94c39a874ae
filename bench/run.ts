/**
 * `npm run bench`: throughput, CPU and queries per request of Bindery's hot endpoints against an
 * organization seeded through the API (BENCH_MEMBERS members, default 100,000), each next to its
 * ceiling measured beside it (in the same interleaved rounds): a bare Fastify JSON route (single
 * reads) or a bare Fastify route answering the same list payload through the same response schema
 * (lists).
 *
 * - Runs the compiled build, each server in its own process, instrumented (bench/processes.ts).
 * - SQLite always (a fresh file); PostgreSQL too when DATABASE_URL is a postgres:// URL (a fresh
 *   database created for the run and dropped at the end).
 * - Load comes from this process through autocannon, to 127.0.0.1 only (bench/load.ts).
 * - Seeding runs on one server process; the measured server is a fresh one (idle RSS after start).
 * - Reads as served (the response cache answers repeated GETs), then the same reads on a server
 *   with RESPONSE_CACHE_MB=0 (the handler answers every request, as the first read after a change):
 *   the endpoints and their ceilings are in bench/endpoints.ts.
 * - WORKERS rows: a few endpoints again with WORKERS=N (node:cluster); CPU from /proc of every process.
 * - Write paths, one at a time (bench/writes.ts).
 * - What recording events costs the write paths: off, on, and on with a webhook (bench/events.ts).
 * - Content search: an organization search over 2,000 pages in 20 spaces, p50 against its ceiling
 *   of 20 ms (bench/search.ts; alone: `npm run bench:search`).
 * - Traffic (issue #35; bench/traffic.ts): mixed traffic over 50 organizations, 90 % reads and 10 %
 *   writes, against the same read mix (bench/mixed.ts), on PostgreSQL also with WORKERS=2 and a
 *   stale check across the processes; the editor's autosave at 200 and 2,000 pages (bench/traffic-autosave.ts).
 *   Alone: `npm run bench:mixed` or BENCH_ONLY=mixed; BENCH_MIXED=0 skips it.
 * - The report on stdout (bench/report.ts), progress on stderr, the machine's load average at the
 *   start and the end.
 *
 * Tunables (BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_MEMBERS, BENCH_WORKERS,
 * BENCH_WRITES, BENCH_EVENT_OPS, BENCH_EVENT_ROUNDS, BENCH_ONLY, BENCH_UNCACHED): bench/settings.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database.js';
import { ceilingUrl, endpoints, measureReads, PAGE_LIMIT, pageCursor, type Row } from './endpoints.js';
import { type EventCostRow, measureEventCost } from './events.js';
import { expect200, type Measurement, measure } from './load.js';
import { cleanUp, ensureBuild, onCleanUp, processTree, type Server, startBindery, startCeiling } from './processes.js';
import { type DatabaseRun, fixed, printRun, printSetup } from './report.js';
import { benchSearch, P50_CEILING_MS } from './search.js';
import { Api, bootstrap, type Seeded, seed } from './seed.js';
import {
  CONNECTIONS,
  DURATION,
  EVENT_OPS,
  EVENT_ROUNDS,
  MEMBERS,
  MIXED,
  ONLY,
  ROOT,
  UNCACHED,
  WARMUP,
  WORKERS,
  WRITES,
} from './settings.js';
import { benchTraffic, printTraffic, runTrafficAlone, type TrafficResult } from './traffic.js';
import { log, sleep } from './util.js';
import { measureWrites } from './writes.js';

/** When "idle RSS after start" is read: after the server has settled (see src/http/memory.ts). */
const IDLE_AFTER_MS = 8_000;

// ---------------------------------------------------------------------------------------------
// One database

let payloadFile: string | undefined;
/** The ceilings' server: started once the list payloads are known, kept until the end of the run. */
let ceilingServer: Server | undefined;

async function benchDatabase(label: string, databaseUrl: string, tmp: string): Promise<DatabaseRun> {
  log(`\n[${label}] seeding through the API: ${MEMBERS} members...`);
  const ids = bootstrap(ROOT, databaseUrl);
  let seeded: Seeded;
  const seeder = await startBindery(databaseUrl);
  try {
    seeded = await seed(new Api(seeder.baseUrl, ids.token), ids, MEMBERS, (line) => log(`[${label}] ${line}`));
  } finally {
    await seeder.stop();
  }
  log(`[${label}] seeded in ${seeded.seconds.toFixed(0)} s`);
  if (isPostgresUrl(databaseUrl)) {
    // Autovacuum analyzes tables this size within a minute of the load: give the planner its statistics now.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('analyze');
    await client.end();
  }

  const server = await startBindery(databaseUrl);
  try {
    // Idle: a server that has settled after start-up (it gives start-up memory back ~6 s after
    // listening, src/http/memory.ts).
    await sleep(IDLE_AFTER_MS);
    const rssIdle = processTree(server.pid).rss;
    // 90 % of the way into the list, and a full page (a short last page would fail its check).
    const deepPage = Math.max(
      1,
      Math.min(
        Math.round(0.9 * Math.ceil(seeded.memberCount / PAGE_LIMIT)),
        Math.floor(seeded.memberCount / PAGE_LIMIT),
      ),
    );
    const deepCursor = await pageCursor(server.baseUrl, seeded, deepPage);
    const groups = endpoints(seeded, deepCursor).map((group) =>
      group.map((e) =>
        e.endpoint.includes('page 900') ? { ...e, endpoint: e.endpoint.replace('900', String(deepPage)) } : e,
      ),
    );
    if (!payloadFile) {
      // The list ceilings answer what Bindery answered, through the same response schema.
      const payloads: { path: string; schema: string; body: unknown }[] = [];
      for (const e of groups.flat()) {
        if (e.kind !== 'list' || payloads.some((p) => p.schema === e.ceiling)) continue;
        payloads.push({
          path: `/${e.ceiling}`,
          schema: e.ceiling as string,
          body: await expect200(server.baseUrl + e.path, seeded.token),
        });
      }
      payloadFile = path.join(tmp, 'payloads.json');
      fs.writeFileSync(payloadFile, JSON.stringify(payloads));
    }
    ceilingServer ??= await startCeiling(payloadFile);
    const ceiling = ceilingServer;
    const selected = groups.map((g) => g.filter((e) => !ONLY || ONLY.test(e.endpoint))).filter((g) => g.length);
    const rows = await measureReads(server, ceiling, selected, seeded, label);
    const rssLoaded = processTree(server.pid).rss;
    log(`[${label}] write paths`);
    const writes = WRITES > 0 ? await measureWrites(server, seeded) : [];
    await server.stop();
    // The same reads with the response cache off: what every request costs when the handler runs
    // (the first read after any change does).
    let uncachedRows: Row[] = [];
    if (UNCACHED) {
      const uncached = await startBindery(databaseUrl, 1, { RESPONSE_CACHE_MB: '0' });
      try {
        uncachedRows = await measureReads(uncached, ceiling, selected, seeded, `${label}, response cache off`);
      } finally {
        await uncached.stop();
      }
    }
    let eventCost: EventCostRow[] = [];
    if (EVENT_ROUNDS > 0 && EVENT_OPS > 0) {
      log(`[${label}] what recording events costs the write paths`);
      eventCost = await measureEventCost(seeded, {
        start: (env) => startBindery(databaseUrl, 1, env),
        rounds: EVENT_ROUNDS,
        opsPerRound: Math.max(1, Math.round(EVENT_OPS / EVENT_ROUNDS)),
        log: (line) => log(`[${label}] ${line}`),
      });
    }
    const loadAverage = os.loadavg();

    let workerRows: Row[] = [];
    let rssIdleWorkers = Number.NaN;
    // SQLite runs one process (config refuses WORKERS > 1 there).
    if (WORKERS > 1 && isPostgresUrl(databaseUrl)) {
      const cluster = await startBindery(databaseUrl, WORKERS);
      try {
        await sleep(IDLE_AFTER_MS);
        rssIdleWorkers = processTree(cluster.pid).rss;
        const picked = selected
          .flat()
          .filter((e) => /^GET \/orgs\/\{id\}$|members \(page 1\)|members\/\{userId\}/.test(e.endpoint));
        for (const e of picked) {
          log(`[${label}] WORKERS=${WORKERS} ${e.endpoint}`);
          const [m, reference] = await measure([
            { server: cluster, url: cluster.baseUrl + e.path, token: seeded.token },
            { server: ceiling, url: ceilingUrl(ceiling, e) },
          ]);
          const endpoint = `${e.endpoint} (WORKERS=${WORKERS})`;
          workerRows.push({ endpoint, kind: e.kind, ceiling: e.ceiling, m: m!, reference: reference! });
        }
      } finally {
        await cluster.stop();
      }
    } else {
      workerRows = [];
    }
    return {
      label,
      seeded,
      rows,
      uncachedRows,
      workerRows,
      writes,
      eventCost,
      rssIdle,
      rssLoaded,
      rssIdleWorkers,
      loadAverage,
    };
  } finally {
    await server.stop();
  }
}

async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; version: string }> {
  const name = `bindery_bench_${Date.now()}_${process.pid}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  let version: string;
  try {
    version = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?';
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  onCleanUp(async () => {
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    try {
      await dropper.query(`drop database if exists ${name} with (force)`);
    } finally {
      await dropper.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), version };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  ensureBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  onCleanUp(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const envUrl = process.env.DATABASE_URL;
  const postgresUrl = envUrl && isPostgresUrl(envUrl) ? envUrl : undefined;

  const cpus = os.cpus();
  const machine =
    `machine: ${os.availableParallelism()} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; Node ${process.version}`;
  const setup =
    `load: autocannon ${CONNECTIONS} connections, ${DURATION} s per endpoint after ${WARMUP} s warm-up; ` +
    `data: 1 organization seeded through the API, ${MEMBERS} members + admin`;
  const loadAtStart = os.loadavg();
  log(machine);

  const runs: DatabaseRun[] = [];
  runs.push(await benchDatabase('sqlite', `sqlite:${path.join(tmp, 'bench.sqlite')}`, tmp));

  // The ceilings on their own, for the table of them (each row's ratio uses the measurement beside it).
  const ceilings = new Map<string, Measurement>();
  const ceiling = ceilingServer as Server;
  const payloads = JSON.parse(fs.readFileSync(payloadFile as string, 'utf8')) as { schema: string }[];
  const urls = [`${ceiling.baseUrl}/`, ...payloads.map((p) => `${ceiling.baseUrl}/${p.schema}`)];
  for (const url of urls) await expect200(url, undefined);
  log('[ceiling] bare routes');
  for (const [i, url] of urls.entries()) {
    const [m] = await measure([{ server: ceiling, url }]);
    ceilings.set(i === 0 ? 'single' : (payloads[i - 1]?.schema as string), m!);
  }

  if (postgresUrl) {
    const { url, version } = await createPostgresDatabase(postgresUrl);
    runs.push(await benchDatabase(`postgres ${version}`, url, tmp));
  }

  // Content search over 2,000 pages, against its p50 ceiling (bench/search.ts).
  log('[search] organization search over 2,000 pages');
  const search = await benchSearch(postgresUrl);
  let traffic: TrafficResult | undefined;
  if (MIXED) {
    log('[traffic] mixed traffic and autosave');
    traffic = await benchTraffic(postgresUrl);
  }

  printSetup(machine, setup, loadAtStart, ceilings);
  for (const [i, run] of runs.entries()) printRun(run, i > 0 ? runs[0] : undefined);
  console.log(`\n## Content search (p50 ceiling ${P50_CEILING_MS} ms)\n`);
  for (const line of search) console.log(`- ${line}`);
  if (search.some((line) => line.endsWith('MISSED'))) process.exitCode = 1;
  if (traffic) printTraffic(traffic);
  console.log(
    `\nload average at the end ${os
      .loadavg()
      .map((l) => fixed(l, 2))
      .join(' ')}`,
  );
  console.log(`\ntotal ${fixed((performance.now() - started) / 1000, 0)} s`);
  const measured = runs.flatMap((r) => [...r.rows, ...r.uncachedRows, ...r.workerRows]);
  const invalid = [...ceilings.values(), ...measured.flatMap((row) => [row.m, row.reference])].some((m) => m.failures);
  if (invalid) {
    console.log('some runs had non-2xx answers or errors (marked !! above)');
    process.exitCode = 1;
  }
}

(process.env.BENCH_ONLY === 'mixed' ? runTrafficAlone() : main())
  .catch((error: unknown) => {
    log(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
