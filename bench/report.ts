/**
 * The report on stdout: the machine and set-up, the ceilings on their own, then for each database
 * its reads (as served, then with the response cache off), RSS, write paths and the cost of
 * recording events.
 */

import type { Row } from './endpoints.js';
import { type EventCostRow, eventCostTable } from './events.js';
import type { Measurement } from './load.js';
import { type MixedResult, type MixMeasurement, P99_GOAL_MS, RATIO_GOAL } from './mixed.js';
import { WARMED_TARGETS } from './mixed-stale.js';
import type { Seeded } from './seed.js';
import { WORKERS } from './settings.js';
import { type AutosaveResult, LARGE, P50_GOAL_MS, REVISION_TABLES, SMALL, stored } from './traffic-autosave.js';
import type { WriteRow } from './writes.js';

/** What one database's run measured. */
export interface DatabaseRun {
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

export function fixed(value: number, digits: number): string {
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

/** Issue #35's goals for reads with the response cache off. */
export const UNCACHED_SINGLE_GOAL = 0.2;
export const UNCACHED_LIST_GOAL = 0.25;
export const UNCACHED_QUERIES_GOAL = 3;

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

/**
 * Each uncached read against its goal: a single resource at least 20 % of the bare JSON route and at
 * most 3 queries, a list at least 25 % of the bare route serving the same body.
 */
function uncachedGoals(rows: Row[]): void {
  console.log(
    `goals with the response cache off: single reads ≥ ${UNCACHED_SINGLE_GOAL * 100} % of the bare route and ≤ ${UNCACHED_QUERIES_GOAL} queries; lists ≥ ${UNCACHED_LIST_GOAL * 100} % of the bare route serving the same body`,
  );
  table(
    ['endpoint', 'goal', 'vs ceiling', 'queries/req', 'verdict'],
    rows.map((row) => {
      const single = row.kind === 'single';
      const ratio = ofCeiling(row);
      const met = single
        ? ratio >= UNCACHED_SINGLE_GOAL && row.m.queriesPerRequest <= UNCACHED_QUERIES_GOAL
        : ratio >= UNCACHED_LIST_GOAL;
      const goal = single
        ? `≥ ${UNCACHED_SINGLE_GOAL.toFixed(2)}, ≤ ${UNCACHED_QUERIES_GOAL} q`
        : `≥ ${UNCACHED_LIST_GOAL.toFixed(2)}`;
      return [row.endpoint, goal, fixed(ratio, 2), fixed(row.m.queriesPerRequest, 1), verdict(met && !row.m.failures)];
    }),
  );
}

export function printRun(run: DatabaseRun, sqlite?: DatabaseRun): void {
  console.log(`\n== ${run.label} ==`);
  console.log('reads as served (repeated GETs answered from the response cache):');
  readsTable([...run.rows, ...run.workerRows], sqlite && [...sqlite.rows, ...sqlite.workerRows]);
  if (run.uncachedRows.length) {
    console.log('the same reads with the response cache off (RESPONSE_CACHE_MB=0: the handler answers every request):');
    readsTable(run.uncachedRows, sqlite?.uncachedRows);
    uncachedGoals(run.uncachedRows);
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

/** The header of the report and the ceilings on their own (each row's ratio uses the measurement beside it). */
export function printSetup(
  machine: string,
  setup: string,
  loadAtStart: number[],
  ceilings: Map<string, Measurement>,
): void {
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
}

function mixCells(name: string, m: MixMeasurement): string[] {
  return [
    name,
    fixed(m.rps, 0),
    fixed(m.writesPerSecond, 0),
    fixed(m.p50, 2),
    fixed(m.p99, 2),
    fixed(m.p99Reads, 2),
    fixed(m.p99Writes, 2),
    fixed(m.cpuPerRequest, 0),
    fixed(m.queriesPerRequest, 2),
    Number.isNaN(m.hitShare) ? '-' : `${fixed(m.hitShare * 100, 0)} %`,
  ];
}

/** The mixed traffic of each database: both mixes, the ratio and p99 against their goals, the stale check. */
export function printMixed(results: MixedResult[]): void {
  console.log(
    `\n## Mixed traffic (goals: mix throughput ≥ ${RATIO_GOAL.toFixed(2)} of the read mix's, mix p99 < ${P99_GOAL_MS} ms)`,
  );
  for (const r of results) {
    console.log(
      `\n${r.label}: ${r.organizations} organizations, ${r.tokens} tokens, ${r.spaces} spaces (seeded through the API in ${fixed(r.seededSeconds, 0)} s)`,
    );
    const header = [
      'run',
      'req/s',
      'writes/s',
      'p50 ms',
      'p99 ms',
      'p99 reads',
      'p99 writes',
      'CPU µs/req',
      'queries/req',
      'from memory',
    ];
    table(
      header,
      r.runs.flatMap((run) => [
        mixCells(`${run.processes}: read mix`, run.reads),
        mixCells(`${run.processes}: mix with writes`, run.mixed),
      ]),
    );
    table(
      [
        'run',
        'mix ÷ read mix',
        `goal ≥ ${RATIO_GOAL.toFixed(2)}`,
        'mix p99 ms',
        `goal < ${P99_GOAL_MS}`,
        'vs 1 process',
      ],
      r.runs.map((run) => {
        const ratio = run.mixed.rps / run.reads.rps;
        const one = r.runs[0] as (typeof r.runs)[number];
        return [
          run.processes,
          fixed(ratio, 2),
          verdict(ratio >= RATIO_GOAL),
          fixed(run.mixed.p99, 1),
          verdict(run.mixed.p99 < P99_GOAL_MS),
          `${fixed(run.mixed.rps / one.mixed.rps, 2)}x`,
        ];
      }),
    );
    console.log('each kind of request in the mix with writes (answered, p50 ms, p99 ms):');
    const kinds = [...new Set(r.runs.flatMap((run) => run.mixed.kinds.map((k) => k.kind)))];
    table(
      ['request', ...r.runs.flatMap((run) => [`${run.processes} n`, 'p50', 'p99'])],
      kinds.map((kind) => [
        kind,
        ...r.runs.flatMap((run) => {
          const k = run.mixed.kinds.find((x) => x.kind === kind);
          return k ? [String(k.count), fixed(k.p50, 1), fixed(k.p99, 1)] : ['0', '-', '-'];
        }),
      ]),
    );
    for (const run of r.runs) {
      for (const [name, m] of [
        ['read mix', run.reads],
        ['mix with writes', run.mixed],
      ] as const) {
        if (m.failures) console.log(`  !! ${run.processes} ${name}: ${m.failures}: its numbers are not valid`);
      }
      if (run.stale) {
        const s = run.stale;
        console.log(
          `stale check (${run.processes}): ${s.stale} stale answers in ${s.reads} reads of ${s.targets} written targets (the last ones the load wrote, and ${WARMED_TARGETS} spaces renamed and autosaved after both processes cached them), with each organization token, through ${s.processes} processes (goal 0: ${verdict(s.stale === 0)})` +
            (s.oneProcessOnly ? `; ${s.oneProcessOnly} reads reached one process only` : '') +
            (s.examples.length ? `; e.g. ${s.examples.join(', ')}` : ''),
        );
      }
    }
  }
}

/** Autosave: p50 at 200 pages against its goal; what a save stores at 200 and 2,000 pages, and their ratio. */
export function printAutosave(results: AutosaveResult[]): void {
  console.log(
    `\n## Autosave (goals: p50 < ${P50_GOAL_MS} ms at ${SMALL} pages; what a save stores grows with the page, not the space: ${LARGE} ÷ ${SMALL} pages ≈ 1)`,
  );
  for (const r of results) {
    console.log(`\n${r.label}:`);
    table(
      [
        'pages',
        'saves',
        'p50 ms',
        'p95 ms',
        'CPU µs/save',
        'request KB',
        'revision rows/save',
        'revision KB/save',
        'all rows/save',
        'all KB/save',
      ],
      r.sizes.map((s) => {
        const revision = stored(s, REVISION_TABLES);
        const all = stored(s);
        return [
          String(s.pages),
          String(s.saves),
          fixed(s.p50, 2),
          fixed(s.p95, 2),
          fixed(s.cpuPerSave, 0),
          fixed(s.requestBytes / 1024, 1),
          fixed(revision.rows, 1),
          fixed(revision.bytes / 1024, 1),
          fixed(all.rows, 1),
          fixed(all.bytes / 1024, 1),
        ];
      }),
    );
    const small = r.sizes.find((s) => s.pages === SMALL);
    const large = r.sizes.find((s) => s.pages === LARGE);
    if (small)
      console.log(
        `p50 at ${SMALL} pages: ${fixed(small.p50, 2)} ms, goal < ${P50_GOAL_MS} ms: ${verdict(small.p50 < P50_GOAL_MS)}`,
      );
    if (small && large) {
      const ratio = stored(large, REVISION_TABLES).bytes / stored(small, REVISION_TABLES).bytes;
      const allRatio = stored(large).bytes / stored(small).bytes;
      console.log(
        `stored per save, ${LARGE} ÷ ${SMALL} pages: revision tables ${fixed(ratio, 2)}x, all tables ${fixed(allRatio, 2)}x (goal ≈ 1: ${verdict(ratio < 1.25)})`,
      );
      const tables = [...new Set([...small.perSave.keys(), ...large.perSave.keys()])].sort();
      console.log(
        `per table (bytes/save at ${SMALL} → ${LARGE}): ${tables.map((t) => `${t} ${fixed(small.perSave.get(t)?.bytes ?? 0, 0)} → ${fixed(large.perSave.get(t)?.bytes ?? 0, 0)}`).join('; ')}`,
      );
    }
  }
}
