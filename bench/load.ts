/**
 * Requests and load. Load comes from this process through autocannon, to 127.0.0.1 only; every URL
 * must answer 200 before it is loaded. CPU time and SQL statements are read from the server's
 * processes around each run (bench/processes.ts).
 */
import autocannon from 'autocannon';
import { processTree, type Server } from './processes.js';
import { CONNECTIONS, DURATION, HOST, WARMUP } from './settings.js';
import { sleep } from './util.js';

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

export async function expect200(url: string, token: string | undefined, check?: (body: any) => string | undefined) {
  const { status, body } = await getJson(url, token);
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  const problem = check?.(body);
  if (problem) throw new Error(`GET ${url}: ${problem}`);
  return body;
}

export interface Measurement {
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
export interface Target {
  server: Server;
  url: string;
  token?: string;
}

/** Measures each target after a warm-up; several are interleaved (A B A B) so drift favours none. */
export async function measure(targets: Target[]): Promise<Measurement[]> {
  for (const t of targets) await load(t.server, t.url, t.token, WARMUP);
  const rounds = targets.length > 1 ? 2 : 1;
  const segments: Segment[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of targets.entries()) segments[i]!.push(await load(t.server, t.url, t.token, DURATION / rounds));
  }
  return segments.map(summarize);
}
