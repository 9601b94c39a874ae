/**
 * `npm run bench`: throughput, CPU and queries per request of Bindery's hot endpoints against an
 * organization seeded through the API (BENCH_MEMBERS members, default 100,000), each next to its
 * ceiling measured beside it (in the same interleaved rounds): a bare Fastify JSON route (single
 * reads) or a bare Fastify route answering the same list payload through the same response schema
 * (lists).
 *
 * - Runs the compiled build (`npm run build` first when dist/ is older than src/; BENCH_BUILD=0 skips).
 * - SQLite always (a fresh file); PostgreSQL too when DATABASE_URL is a postgres:// URL (a fresh
 *   database created for the run and dropped at the end).
 * - Each server runs in its own process, with bench/instrument.mjs preloaded: it counts SQL
 *   statements at the driver and reports them with CPU time and RSS over IPC. Load comes from this
 *   process through autocannon, to 127.0.0.1 only. Every URL must answer 200 before it is loaded.
 * - Seeding runs on one server process; the measured server is a fresh one (idle RSS after start).
 * - Reads as served (the response cache answers repeated GETs), then the same reads on a server
 *   with RESPONSE_CACHE_MB=0 (the handler answers every request, as the first read after a change).
 * - WORKERS rows: a few endpoints again with WORKERS=N (node:cluster); CPU from /proc of every process.
 * - What recording events costs the write paths: off, on, and on with a webhook (bench/events.ts).
 *
 * Tunables: BENCH_DURATION (s per endpoint, default 4), BENCH_WARMUP (1), BENCH_CONNECTIONS (50),
 * BENCH_MEMBERS (100000), BENCH_WORKERS (cores), BENCH_WRITES (write operations timed, 30; 0: none),
 * BENCH_EVENT_OPS (operations per write path and mode in the events comparison, 300; 0: none) in
 * BENCH_EVENT_ROUNDS rounds (50), BENCH_ONLY (a regular expression: only the read endpoints it matches),
 * BENCH_UNCACHED (0: skip the reads with the response cache off).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database.js';
import { type EventCostRow, eventCostTable, measureEventCost } from './events.js';
import { Api, bootstrap, PAGES, type Seeded, seed } from './seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const DURATION = positiveNumber('BENCH_DURATION', 4);
const WARMUP = positiveNumber('BENCH_WARMUP', 1);
const CONNECTIONS = positiveNumber('BENCH_CONNECTIONS', 50);
const MEMBERS = positiveNumber('BENCH_MEMBERS', 100_000);
const WORKERS = positiveNumber('BENCH_WORKERS', os.availableParallelism());
const WRITES = Number(process.env.BENCH_WRITES ?? 30);
const EVENT_OPS = Number(process.env.BENCH_EVENT_OPS ?? 300);
const EVENT_ROUNDS = Number(process.env.BENCH_EVENT_ROUNDS ?? 50);
/** Whether the reads are measured a second time with the response cache off (BENCH_UNCACHED=0: not). */
const UNCACHED = process.env.BENCH_UNCACHED !== '0';
/** Only the endpoints whose name matches this regular expression (for quick A/B runs). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const PAGE_LIMIT = 100;
/** When "idle RSS after start" is read: after the server has settled (see src/core/memory.ts). */
const IDLE_AFTER_MS = 8_000;
const CLOCK_TICK_MICROS = 10_000; // /proc reports CPU time in USER_HZ (100 per second on Linux)

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Clean-up: children are killed and temporary databases removed on every way out.

const children = new Map<ChildProcess, Promise<unknown>>();
const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
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

interface Stats {
  queries: number;
  cpuMicros: number;
  rss: number;
}

interface Server {
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
function processTree(pid: number): { cpuMicros: number; rss: number } {
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

function startBindery(databaseUrl: string, workers = 1, env: Record<string, string> = {}): Promise<Server> {
  return startServer(
    workers > 1 ? `bindery x${workers}` : 'bindery',
    ['--import', './bench/instrument.mjs', 'bin/bindery.js', 'serve'],
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

function startCeiling(payloadFile: string): Promise<Server> {
  return startServer('ceiling', ['--import', 'tsx', 'bench/ceiling.ts'], { BENCH_PAYLOADS: payloadFile }, '/');
}

/** Builds dist/ when it is missing or older than src/ (the bench measures the production build). */
function ensureBuild(): void {
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
  /** CPU time of the server (all its processes) per response, µs. */
  cpuPerRequest: number;
  /** SQL statements per response; NaN when not counted. */
  queriesPerRequest: number;
  failures: string | null;
}

interface Segment {
  latencies: number[];
  seconds: number;
  bytes: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  cpuMicros: number;
  queries: number;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Loads `url` for `seconds`; CPU and queries of `server` are read around the run. */
async function load(server: Server, url: string, token: string | undefined, seconds: number): Promise<Segment> {
  if (new URL(url).hostname !== HOST) throw new Error(`refusing to load ${url}: only ${HOST} is benchmarked`);
  const latencies: number[] = [];
  const before = { tree: processTree(server.pid), stats: await server.stats() };
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
  // Requests cut off when the run stopped may still be running in the server: let them finish.
  await sleep(300);
  const after = { tree: processTree(server.pid), stats: await server.stats() };
  return {
    latencies,
    seconds: result.duration,
    bytes: result.throughput.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    cpuMicros: after.tree.cpuMicros - before.tree.cpuMicros,
    queries: before.stats && after.stats ? after.stats.queries - before.stats.queries : Number.NaN,
  };
}

function summarize(segments: Segment[]): Measurement {
  const sorted = Float64Array.from(segments.flatMap((s) => s.latencies)).sort();
  const sum = (f: (s: Segment) => number) => segments.reduce((total, s) => total + f(s), 0);
  const responses = sorted.length;
  const codes: Record<string, number> = {};
  for (const s of segments) for (const [c, n] of Object.entries(s.statusCodes)) codes[c] = (codes[c] ?? 0) + n;
  const non2xx = sum((s) => s.non2xx);
  const errors = sum((s) => s.errors + s.timeouts);
  const bad = Object.entries(codes).filter(([c]) => !c.startsWith('2'));
  return {
    rps: responses / sum((s) => s.seconds),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    responses,
    bytesPerResponse: responses > 0 ? sum((s) => s.bytes) / responses : 0,
    cpuPerRequest: responses > 0 ? sum((s) => s.cpuMicros) / responses : Number.NaN,
    queriesPerRequest: responses > 0 ? sum((s) => s.queries) / responses : Number.NaN,
    failures:
      non2xx + errors > 0
        ? `${non2xx} non-2xx (${bad.map(([c, n]) => `${c}x${n}`).join(', ')}), ${errors} errors/timeouts`
        : null,
  };
}

/** A URL to load and the server process whose CPU and queries it costs. */
interface Target {
  server: Server;
  url: string;
  token?: string;
}

/** Measures each target after a warm-up; several are interleaved (A B A B) so drift favours none. */
async function measure(targets: Target[]): Promise<Measurement[]> {
  for (const t of targets) await load(t.server, t.url, t.token, WARMUP);
  const rounds = targets.length > 1 ? 2 : 1;
  const segments: Segment[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of targets.entries()) segments[i]!.push(await load(t.server, t.url, t.token, DURATION / rounds));
  }
  return segments.map(summarize);
}

// ---------------------------------------------------------------------------------------------
// Endpoints

type Kind = 'single' | 'list';
interface Endpoint {
  endpoint: string;
  kind: Kind;
  /** The list ceiling this endpoint is compared with (same payload, same schema). */
  ceiling?: string;
  path: string;
  check: (body: any) => string | undefined;
}

interface Row {
  endpoint: string;
  kind: Kind;
  ceiling?: string;
  m: Measurement;
  /** Its ceiling, measured in the same rounds as it (interleaved), so the machine's drift cancels out. */
  reference: Measurement;
}

function endpoints(s: Seeded, deepCursor: string): Endpoint[][] {
  const org = `/v1/orgs/${s.organizationId}`;
  const same = (field: string, value: string) => (b: any) => (b[field] === value ? undefined : `wrong ${field}`);
  const items = (n: number) => (b: any) =>
    b.items?.length === n ? undefined : `expected ${n} items, got ${b.items?.length}`;
  const members = `${org}/members?limit=${PAGE_LIMIT}`;
  return [
    [{ endpoint: 'GET /orgs/{id}', kind: 'single', path: org, check: same('id', s.organizationId) }],
    [
      {
        endpoint: 'GET /orgs/{id}/members/{userId}',
        kind: 'single',
        path: `${org}/members/${s.sampleUserId}`,
        check: same('id', s.sampleUserId),
      },
    ],
    [{ endpoint: 'GET /spaces/{id}', kind: 'single', path: `/v1/spaces/${s.spaceId}`, check: same('id', s.spaceId) }],
    [
      {
        endpoint: 'GET /orgs/{id}/sites/{siteId}',
        kind: 'single',
        path: `${org}/sites/${s.siteId}`,
        check: same('id', s.siteId),
      },
    ],
    [
      {
        endpoint: 'GET /collections/{id}',
        kind: 'single',
        path: `/v1/collections/${s.collectionId}`,
        check: same('id', s.collectionId),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/change-requests/{crId}',
        kind: 'single',
        path: `/v1/spaces/${s.contentSpaceId}/change-requests/${s.changeRequestId}`,
        check: same('id', s.changeRequestId),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/content/page/{pageId}',
        kind: 'single',
        path: `/v1/spaces/${s.contentSpaceId}/content/page/${s.pageId}`,
        check: same('id', s.pageId),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/members (page 1)',
        kind: 'list',
        ceiling: 'members',
        path: members,
        check: items(100),
      },
      {
        endpoint: 'GET /orgs/{id}/members (page 900)',
        kind: 'list',
        ceiling: 'members',
        path: `${members}&page=${encodeURIComponent(deepCursor)}`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/teams',
        kind: 'list',
        ceiling: 'teams',
        path: `${org}/teams?limit=100`,
        check: items(s.teams),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/spaces',
        kind: 'list',
        ceiling: 'spaces',
        path: `${org}/spaces?limit=100`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /orgs/{id}/sites',
        kind: 'list',
        ceiling: 'sites',
        path: `${org}/sites?limit=100`,
        check: items(100),
      },
    ],
    [
      {
        endpoint: 'GET /spaces/{id}/content/pages',
        kind: 'list',
        ceiling: 'pages',
        path: `/v1/spaces/${s.contentSpaceId}/content/pages`,
        check: (b) => (b.pages?.length === PAGES ? undefined : `expected ${PAGES} pages, got ${b.pages?.length}`),
      },
    ],
  ];
}

/** Walks the member list with `next.page` to the cursor of page `target`, checking the paging. */
async function pageCursor(baseUrl: string, s: Seeded, target: number): Promise<string> {
  const url = `${baseUrl}/v1/orgs/${s.organizationId}/members?limit=${PAGE_LIMIT}`;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page < target; page++) {
    const body = await expect200(cursor ? `${url}&page=${encodeURIComponent(cursor)}` : url, s.token);
    if (body.count !== s.memberCount) throw new Error(`member count is ${body.count}, expected ${s.memberCount}`);
    for (const item of body.items as { id: string }[]) {
      if (seen.has(item.id)) throw new Error(`member ${item.id} listed twice (page ${page})`);
      seen.add(item.id);
    }
    cursor = body.next?.page;
    if (!cursor) throw new Error(`the member list ends at page ${page}, before page ${target}`);
  }
  if (!cursor) throw new Error('no cursor');
  return cursor;
}

// ---------------------------------------------------------------------------------------------
// Write paths: timed one at a time (each changes data, so autocannon cannot repeat them).

interface WriteRow {
  endpoint: string;
  ms: number;
  cpuPerRequest: number;
  queriesPerRequest: number;
}

async function measureWrites(server: Server, s: Seeded): Promise<WriteRow[]> {
  const api = new Api(server.baseUrl, s.token);
  const space = s.contentSpaceId;
  const rows: WriteRow[] = [];
  const timed = async (
    endpoint: string,
    prepare: (i: number) => Promise<unknown>,
    run: (p: any) => Promise<unknown>,
  ) => {
    let ms = 0;
    let cpu = 0;
    let queries = 0;
    for (let i = 0; i < WRITES; i++) {
      const prepared = await prepare(i);
      const before = await server.stats();
      const started = performance.now();
      await run(prepared);
      ms += performance.now() - started;
      const after = await server.stats();
      if (before && after) {
        cpu += after.cpuMicros - before.cpuMicros;
        queries += after.queries - before.queries;
      }
    }
    rows.push({ endpoint, ms: ms / WRITES, cpuPerRequest: cpu / WRITES, queriesPerRequest: queries / WRITES });
  };
  await timed(
    'POST /orgs/{id}/collections',
    async () => undefined,
    () => api.call('POST', `/orgs/${s.organizationId}/collections`, { title: 'Timed collection' }),
  );
  const cr = await api.call('POST', `/spaces/${space}/change-requests`, { subject: 'Timed edits' });
  await timed(
    'POST /spaces/{id}/change-requests/{crId}/content (update one page)',
    async () => undefined,
    () =>
      api.call('POST', `/spaces/${space}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page: s.pageId, document: { markdown: `Edited ${Math.random()}\n` } }],
      }),
  );
  await timed(
    'POST /spaces/{id}/change-requests/{crId}/merge (one page changed)',
    async (i) => {
      const next = await api.call('POST', `/spaces/${space}/change-requests`, { subject: `Merge ${i}` });
      await api.call('POST', `/spaces/${space}/change-requests/${next.id}/content`, {
        changes: [{ operation: 'update_page', page: s.pageId, title: `Merged ${i}` }],
      });
      return next.id;
    },
    (id: string) => api.call('POST', `/spaces/${space}/change-requests/${id}/merge`, {}),
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// One database

interface DatabaseRun {
  label: string;
  seeded: Seeded;
  rows: Row[];
  /** The same reads with RESPONSE_CACHE_MB=0 (empty when BENCH_UNCACHED=0). */
  uncachedRows: Row[];
  workerRows: Row[];
  writes: WriteRow[];
  eventCost: EventCostRow[];
  rssIdle: number;
  rssLoaded: number;
  rssIdleWorkers: number;
  loadAverage: number[];
}

let payloadFile: string | undefined;
/** The ceilings' server: started once the list payloads are known, kept until the end of the run. */
let ceilingServer: Server | undefined;

/** The URL of the ceiling an endpoint is compared with: the bare JSON route, or its list's same-payload route. */
function ceilingUrl(ceiling: Server, e: Pick<Endpoint, 'kind' | 'ceiling'>): string {
  return e.kind === 'list' ? `${ceiling.baseUrl}/${e.ceiling}` : `${ceiling.baseUrl}/`;
}

/**
 * Measures each group of endpoints, checking each answers 200 first. A group's endpoints and their
 * ceilings are loaded in the same interleaved rounds: a ratio compares two measurements seconds
 * apart, not minutes (this machine's speed drifts 10–20 % within a run).
 */
async function measureReads(
  server: Server,
  ceiling: Server,
  groups: Endpoint[][],
  seeded: Seeded,
  label: string,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const group of groups) {
    for (const e of group) await expect200(server.baseUrl + e.path, seeded.token, e.check);
    log(`[${label}] ${group.map((e) => e.endpoint).join(' + ')}`);
    const references = [...new Set(group.map((e) => ceilingUrl(ceiling, e)))];
    const measured = await measure([
      ...group.map((e) => ({ server, url: server.baseUrl + e.path, token: seeded.token })),
      ...references.map((url) => ({ server: ceiling, url })),
    ]);
    for (const [i, e] of group.entries()) {
      const reference = measured[group.length + references.indexOf(ceilingUrl(ceiling, e))]!;
      rows.push({ endpoint: e.endpoint, kind: e.kind, ceiling: e.ceiling, m: measured[i]!, reference });
    }
  }
  return rows;
}

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
    // listening, src/core/memory.ts).
    await sleep(IDLE_AFTER_MS);
    const rssIdle = processTree(server.pid).rss;
    const deepPage = Math.round(0.9 * Math.ceil(seeded.memberCount / PAGE_LIMIT));
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
  cleanups.push(async () => {
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
// Report

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}
const mb = (bytes: number) => `${fixed(bytes / 2 ** 20, 0)} MB`;

function table(header: string[], cells: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

/** A row's throughput as a fraction of its ceiling's, measured beside it. */
const ofCeiling = (row: Row) => row.m.rps / row.reference.rps;

/**
 * `vs ceiling` divides by the ceiling measured in the same rounds (its req/s and p99 are shown);
 * `SQLite/this` compares the two databases' `vs ceiling`, so the machine's drift between the two
 * runs cancels out as well.
 */
function readsTable(rows: Row[], sqliteRows?: Row[]): void {
  const header = ['endpoint', 'req/s', 'CPU µs/req', 'queries/req', 'p50 ms', 'p99 ms', 'KB/resp'];
  header.push('ceiling req/s', 'ceiling p99', 'vs ceiling');
  if (sqliteRows) header.push('SQLite/this');
  const cells = rows.map((row) => {
    const { endpoint, m, reference } = row;
    const cell = [
      endpoint,
      fixed(m.rps, 0),
      fixed(m.cpuPerRequest, 0),
      fixed(m.queriesPerRequest, 1),
      fixed(m.p50, 2),
      fixed(m.p99, 2),
      fixed(m.bytesPerResponse / 1024, 1),
      fixed(reference.rps, 0),
      fixed(reference.p99, 2),
      `${fixed(ofCeiling(row) * 100, 1)}%`,
    ];
    if (sqliteRows) {
      const other = sqliteRows.find((r) => r.endpoint === endpoint);
      cell.push(other ? `${fixed(ofCeiling(other) / ofCeiling(row), 2)}x` : '-');
    }
    return cell;
  });
  table(header, cells);
  for (const { endpoint, m } of rows) {
    if (m.failures) console.log(`  !! ${endpoint}: ${m.failures}: its numbers are not valid`);
  }
  const lists = rows.filter(
    (r) => r.endpoint.startsWith('GET /orgs/{id}/members (page') && !r.endpoint.includes('WORKERS'),
  );
  if (lists.length === 2) {
    const [first, deep] = lists.map((r) => r.m) as [Measurement, Measurement];
    console.log(
      `deep page vs first page: time per request ${fixed(first.rps / deep.rps, 2)}x, CPU ${fixed(deep.cpuPerRequest / first.cpuPerRequest, 2)}x, p99 ${fixed(deep.p99 / first.p99, 2)}x`,
    );
  }
}

function printRun(run: DatabaseRun, sqlite?: DatabaseRun): void {
  console.log(`\n== ${run.label} ==`);
  console.log('reads as served (repeated GETs answered from the response cache):');
  readsTable([...run.rows, ...run.workerRows], sqlite && [...sqlite.rows, ...sqlite.workerRows]);
  if (run.uncachedRows.length) {
    console.log('the same reads with the response cache off (RESPONSE_CACHE_MB=0: the handler answers every request):');
    readsTable(run.uncachedRows, sqlite?.uncachedRows);
  }
  console.log(
    `RSS: idle after start ${mb(run.rssIdle)} (1 process), after load ${mb(run.rssLoaded)}; WORKERS=${WORKERS} idle ${mb(run.rssIdleWorkers)} (all processes)`,
  );
  console.log('write paths (one at a time):');
  table(
    ['operation', 'ms', 'CPU µs/req', 'queries/req'],
    run.writes.map((w) => [w.endpoint, fixed(w.ms, 1), fixed(w.cpuPerRequest, 0), fixed(w.queriesPerRequest, 1)]),
  );
  if (run.eventCost.length) {
    console.log(
      'recording events (modes alternated in rounds; off = BINDERY_BENCH_NO_EVENTS=1; vs off: throughput and CPU relative to off, the throughput with its 95 % interval over the rounds):',
    );
    table(
      [
        'operation',
        'events',
        'ops',
        'ms/op',
        'CPU µs/op',
        'queries/op',
        'throughput vs off',
        '95 % interval',
        'CPU vs off',
      ],
      eventCostTable(run.eventCost),
    );
  }
  console.log(
    `(seeded through the API in ${fixed(run.seeded.seconds, 0)} s; load average at the end ${run.loadAverage.map((l) => fixed(l, 2)).join(' ')})`,
  );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  ensureBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
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

  console.log(`\n${machine}\n${setup}\nload average at start ${loadAtStart.map((l) => fixed(l, 2)).join(' ')}`);
  console.log('\nceilings (bare Fastify, no logging, validation, authentication or database):');
  table(
    ['route', 'req/s', 'CPU µs/req', 'p50 ms', 'p99 ms', 'KB/resp'],
    [...ceilings].map(([name, m]) => [
      name === 'single' ? 'GET / {"hello":"world"}' : `GET /${name} (same payload and schema)`,
      fixed(m.rps, 0),
      fixed(m.cpuPerRequest, 0),
      fixed(m.p50, 2),
      fixed(m.p99, 2),
      fixed(m.bytesPerResponse / 1024, 1),
    ]),
  );
  for (const [i, run] of runs.entries()) printRun(run, i > 0 ? runs[0] : undefined);
  console.log(`\ntotal ${fixed((performance.now() - started) / 1000, 0)} s`);
  const measured = runs.flatMap((r) => [...r.rows, ...r.uncachedRows, ...r.workerRows]);
  const invalid = [...ceilings.values(), ...measured.flatMap((row) => [row.m, row.reference])].some((m) => m.failures);
  if (invalid) {
    console.log('some runs had non-2xx answers or errors (marked !! above)');
    process.exitCode = 1;
  }
}

main()
  .catch((error: unknown) => {
    log(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
