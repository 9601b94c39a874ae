/**
 * The report on stdout: the machine and set-up, the ceilings on their own, then for each database
 * its reads (as served, then with the response cache off), RSS, write paths and the cost of
 * recording events.
 */

import type { Row } from './endpoints.js';
import { type EventCostRow, eventCostTable } from './events.js';
import type { Measurement } from './load.js';
import type { Seeded } from './seed.js';
import { WORKERS } from './settings.js';
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

export function printRun(run: DatabaseRun, sqlite?: DatabaseRun): void {
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
