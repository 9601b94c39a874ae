/**
 * `npm run bench`: throughput and latency of a few read endpoints against an organization of
 * 10,000 members and 100 teams, next to a bare Fastify route (the ceiling).
 *
 * - Always runs against a fresh SQLite file in a temporary folder; when DATABASE_URL is a
 *   postgres:// URL, also against a fresh database created on that server for the run (and dropped
 *   at the end).
 * - Each server runs in its own child process (`node bin/bindery.js serve`); the load comes from
 *   this process through autocannon, to 127.0.0.1 only.
 * - Every URL is checked to answer 200 before it is loaded; non-2xx answers, errors and timeouts
 *   during a run are counted and printed.
 *
 * Tunables (environment): BENCH_DURATION (seconds per endpoint, default 5), BENCH_WARMUP (default 1),
 * BENCH_CONNECTIONS (default 10).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database.js';
import { MEMBERS, type Seeded, seed, TEAMS } from './seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const DURATION = positiveNumber('BENCH_DURATION', 5);
const WARMUP = positiveNumber('BENCH_WARMUP', 1);
const CONNECTIONS = positiveNumber('BENCH_CONNECTIONS', 10);
const PAGE_LIMIT = 100;
/** The deep page benchmarked: page 90 of the member list (of 101 with limit 100). */
const DEEP_PAGE = 90;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Clean-up: children are killed and temporary databases removed on every way out.

/** Running children, each with the promise of its exit. */
const children = new Map<ChildProcess, Promise<unknown>>();
const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    // Children first (and wait for them), so no server still holds the databases removed below.
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
        process.stderr.write(`bench: clean-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
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
    process.stderr.write(
      `bench: ${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    void cleanUp().finally(() => process.exit(1));
  });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping\n`);
    const timer = setTimeout(() => process.exit(130), 10_000);
    timer.unref();
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

interface Server {
  name: string;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `node <args>` with `env`, forwarding its output prefixed, and waits until `readyPath` answers 200. */
async function startServer(name: string, args: string[], env: Record<string, string>, readyPath: string) {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
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
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) process.stderr.write(`  [${name}] ${line}\n`);
    });
  }

  const baseUrl = `http://${HOST}:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
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
      throw new Error(`${name} not ready after 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name, baseUrl, stop } satisfies Server;
}

function startBindery(databaseUrl: string): Promise<Server> {
  return startServer(
    'bindery',
    ['bin/bindery.js', 'serve'],
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', PUBLIC_URL: 'http://bench.invalid' },
    '/readyz',
  );
}

function startCeiling(): Promise<Server> {
  return startServer('ceiling', ['--import', 'tsx', 'bench/ceiling.ts'], {}, '/');
}

// ---------------------------------------------------------------------------------------------
// Requests and load

async function getJson(url: string, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: response.status, body };
}

/** Throws unless `url` answers 200 (and passes `check`), so a run never measures error responses. */
async function expect200(url: string, token: string | undefined, check?: (body: any) => string | undefined) {
  const { status, body } = await getJson(url, token);
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  const problem = check?.(body);
  if (problem) throw new Error(`GET ${url}: ${problem}`);
  return body;
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  bytesPerResponse: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** One autocannon run. */
interface Segment {
  latencies: number[];
  seconds: number;
  bytes: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loads `url` for `seconds` with autocannon; latencies are taken per response (sub-millisecond). */
async function load(url: string, token: string | undefined, seconds: number): Promise<Segment> {
  if (new URL(url).hostname !== HOST) throw new Error(`refusing to load ${url}: only ${HOST} is benchmarked`);
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  // Requests cut off when the run stopped may still be running in the server: let them finish
  // before the next run starts (or the server is stopped).
  await sleep(300);
  return {
    latencies,
    seconds: result.duration,
    bytes: result.throughput.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

function summarize(segments: Segment[]): Measurement {
  const sorted = Float64Array.from(segments.flatMap((s) => s.latencies)).sort();
  const sum = (f: (s: Segment) => number) => segments.reduce((total, s) => total + f(s), 0);
  const statusCodes: Record<string, number> = {};
  for (const s of segments) {
    for (const [code, n] of Object.entries(s.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  const responses = sorted.length;
  return {
    rps: responses / sum((s) => s.seconds),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    responses,
    bytesPerResponse: responses > 0 ? sum((s) => s.bytes) / responses : 0,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    statusCodes,
  };
}

/**
 * Measures each URL for {@link DURATION} seconds after a warm-up. Several URLs are measured
 * interleaved (A B A B, half the time each), so drift on a shared machine does not favour one.
 */
async function measure(urls: string[], token?: string): Promise<Measurement[]> {
  for (const url of urls) await load(url, token, WARMUP);
  const rounds = urls.length > 1 ? 2 : 1;
  const segments: Segment[][] = urls.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, url] of urls.entries()) segments[i]!.push(await load(url, token, DURATION / rounds));
  }
  return segments.map(summarize);
}

// ---------------------------------------------------------------------------------------------
// One database

interface Row {
  endpoint: string;
  m: Measurement;
}

interface DatabaseRun {
  label: string;
  seeded: Seeded;
  rows: Row[];
  walkSeconds: number;
  first: Measurement;
  deep: Measurement;
  /** 1-minute load average when the run ended: other work on the machine skews the numbers. */
  loadAverage: number;
}

/** Walks the member list with `next.page` to the cursor of page {@link DEEP_PAGE}, checking the paging. */
async function deepPageCursor(membersUrl: string, token: string, expected: number): Promise<string> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  let deepCursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page === DEEP_PAGE) deepCursor = cursor;
    const url = cursor ? `${membersUrl}&page=${encodeURIComponent(cursor)}` : membersUrl;
    const body = await expect200(url, token);
    if (body.count !== expected) throw new Error(`member list count is ${body.count}, expected ${expected}`);
    for (const item of body.items as { id: string }[]) {
      if (seen.has(item.id)) throw new Error(`member ${item.id} listed twice (page ${page})`);
      seen.add(item.id);
    }
    cursor = body.next?.page;
    if (!cursor) break;
    if (body.items.length !== PAGE_LIMIT) throw new Error(`page ${page} has ${body.items.length} items and a next`);
  }
  if (seen.size !== expected)
    throw new Error(`walking the member list gave ${seen.size} members, expected ${expected}`);
  if (!deepCursor) throw new Error(`the member list has fewer than ${DEEP_PAGE} pages`);
  return deepCursor;
}

async function benchDatabase(label: string, databaseUrl: string): Promise<DatabaseRun> {
  process.stderr.write(`\n[${label}] seeding ${MEMBERS} members and ${TEAMS} teams...\n`);
  const seeded = await seed(databaseUrl);
  process.stderr.write(
    `[${label}] seeded in ${seeded.seconds.toFixed(1)} s (${seeded.teamMemberships} team memberships)\n`,
  );
  const server = await startBindery(databaseUrl);
  try {
    const { token, organizationId: org } = seeded;
    const base = `${server.baseUrl}/v1/orgs/${org}`;
    const membersUrl = `${base}/members?limit=${PAGE_LIMIT}`;
    const walkStarted = performance.now();
    const deepCursor = await deepPageCursor(membersUrl, token, seeded.memberCount);
    const walkSeconds = (performance.now() - walkStarted) / 1000;

    const isPage = (body: any) =>
      body.items?.length === PAGE_LIMIT ? undefined : `expected ${PAGE_LIMIT} items, got ${body.items?.length}`;
    type Endpoint = { endpoint: string; url: string; check: (body: any) => string | undefined };
    const firstPage: Endpoint = {
      endpoint: `GET /v1/orgs/{id}/members?limit=${PAGE_LIMIT} (page 1)`,
      url: membersUrl,
      check: isPage,
    };
    const deepPage: Endpoint = {
      endpoint: `GET /v1/orgs/{id}/members?limit=${PAGE_LIMIT} (page ${DEEP_PAGE})`,
      url: `${membersUrl}&page=${encodeURIComponent(deepCursor)}`,
      check: isPage,
    };
    // Groups are measured interleaved: page 1 and the deep page are compared with each other.
    const groups: Endpoint[][] = [
      [{ endpoint: 'GET /v1/orgs/{id}', url: base, check: (b) => (b.id === org ? undefined : 'wrong organization') }],
      [firstPage, deepPage],
      [
        {
          endpoint: 'GET /v1/orgs/{id}/members/{userId}',
          url: `${base}/members/${seeded.sampleUserId}`,
          check: (b) => (b.id === seeded.sampleUserId ? undefined : 'wrong member'),
        },
      ],
      [
        {
          endpoint: 'GET /v1/orgs/{id}/teams',
          url: `${base}/teams`,
          check: (b) => (b.items?.length === TEAMS ? undefined : `expected ${TEAMS} teams, got ${b.items?.length}`),
        },
      ],
    ];
    const rows: Row[] = [];
    for (const group of groups) {
      for (const { url, check } of group) await expect200(url, token, check);
      process.stderr.write(`[${label}] ${group.map((e) => e.endpoint).join(' + ')}\n`);
      const measured = await measure(
        group.map((e) => e.url),
        token,
      );
      for (const [i, { endpoint }] of group.entries()) rows.push({ endpoint, m: measured[i]! });
    }
    const find = (e: Endpoint) => rows.find((r) => r.endpoint === e.endpoint)!.m;
    return {
      label,
      seeded,
      rows,
      walkSeconds,
      first: find(firstPage),
      deep: find(deepPage),
      loadAverage: os.loadavg()[0] ?? 0,
    };
  } finally {
    await server.stop();
  }
}

/** Creates a database for this run on the server of `adminUrl`; returns its URL and registers its drop. */
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
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    try {
      await dropper.query(`drop database if exists ${name} with (force)`);
      process.stderr.write(`dropped database ${name}\n`);
    } finally {
      await dropper.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), version };
}

// ---------------------------------------------------------------------------------------------
// Report

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function printTable(title: string, rows: Row[], ceiling: Measurement): void {
  const header = ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'vs ceiling', 'KB/resp', 'non-2xx', 'errors'];
  const all = [{ endpoint: 'ceiling: bare Fastify GET / {"hello":"world"}', m: ceiling }, ...rows];
  const cells = all.map(({ endpoint, m }) => [
    endpoint,
    fixed(m.rps, 0),
    fixed(m.p50, 2),
    fixed(m.p99, 2),
    `${fixed((m.rps / ceiling.rps) * 100, 1)}%`,
    fixed(m.bytesPerResponse / 1024, 1),
    String(m.non2xx),
    String(m.errors + m.timeouts),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
  for (const { endpoint, m } of all) {
    const codes = Object.entries(m.statusCodes).filter(([code]) => !code.startsWith('2'));
    if (m.non2xx > 0 || m.errors > 0 || m.timeouts > 0) {
      console.log(
        `  !! ${endpoint}: ${m.non2xx} non-2xx (${codes.map(([c, n]) => `${c}x${n}`).join(', ')}), ` +
          `${m.errors} errors, ${m.timeouts} timeouts: its numbers are not valid`,
      );
    }
  }
}

function printDeepRatio(run: DatabaseRun): void {
  const { first, deep } = run;
  console.log(
    `deep page (${DEEP_PAGE} of ${Math.ceil(run.seeded.memberCount / PAGE_LIMIT)}) vs first page: ` +
      `req/s ${fixed(deep.rps / first.rps, 2)}x, p50 ${fixed(deep.p50 / first.p50, 2)}x, ` +
      `p99 ${fixed(deep.p99 / first.p99, 2)}x`,
  );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const envUrl = process.env.DATABASE_URL;
  const postgresUrl = envUrl && isPostgresUrl(envUrl) ? envUrl : undefined;

  const cpus = os.cpus();
  const machine =
    `machine: ${os.availableParallelism()} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}; Node ${process.version}`;
  const setup =
    `load: autocannon ${CONNECTIONS} connections, ${DURATION} s per endpoint after ${WARMUP} s warm-up, ` +
    `to ${HOST}; data: 1 organization, ${MEMBERS} members + admin, ${TEAMS} teams`;
  const note = 'statistics: postgres tables ANALYZEd after seeding (as autovacuum would); sqlite not (as the server)';
  console.log(machine);
  console.log(setup);
  const loadAtStart = os.loadavg()[0] ?? 0;
  if (loadAtStart > 0.5) {
    console.log(
      `note: 1-min load average is ${loadAtStart.toFixed(2)} before starting: something else is using the CPU, ` +
        'expect noisy numbers',
    );
  }

  const ceilingServer = await startCeiling();
  let ceiling: Measurement;
  try {
    await expect200(`${ceilingServer.baseUrl}/`, undefined, (b) => (b.hello === 'world' ? undefined : 'wrong body'));
    process.stderr.write('[ceiling] GET /\n');
    [ceiling] = (await measure([`${ceilingServer.baseUrl}/`])) as [Measurement];
  } finally {
    await ceilingServer.stop();
  }

  const runs: DatabaseRun[] = [];
  runs.push(await benchDatabase('sqlite', `sqlite:${path.join(tmp, 'bench.sqlite')}`));
  if (postgresUrl) {
    const { url, version } = await createPostgresDatabase(postgresUrl);
    runs.push(await benchDatabase(`postgres ${version}`, url));
  }

  console.log(`\n${machine}\n${setup}\n${note}\n1-min load average at start ${fixed(loadAtStart, 2)}`);
  for (const run of runs) {
    printTable(`== ${run.label} ==`, run.rows, ceiling);
    printDeepRatio(run);
    console.log(
      `(seeded in ${fixed(run.seeded.seconds, 1)} s; walking all ${Math.ceil(run.seeded.memberCount / PAGE_LIMIT)} ` +
        `member pages once took ${fixed(run.walkSeconds, 2)} s; 1-min load average at the end ${fixed(run.loadAverage, 2)}, the benchmark itself accounting for ~2)`,
    );
  }
  const invalid = [ceiling, ...runs.flatMap((r) => r.rows.map((row) => row.m))].some(
    (m) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0,
  );
  console.log(`\ntotal ${fixed((performance.now() - started) / 1000, 0)} s`);
  if (invalid) {
    console.log('some runs had non-2xx answers or errors (marked !! above)');
    process.exitCode = 1;
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
