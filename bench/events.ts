/**
 * What recording events costs the write paths (#14: "recording events costs a write path less than
 * 10 % of its throughput"). The same write paths run against one seeded database in three modes:
 *
 * - off: BINDERY_BENCH_NO_EVENTS=1 set in the server, where bench/instrument.mjs (preloaded into
 *   it) then keeps the event's insert from reaching the database: no event row, no delivery (the
 *   bench's own set-up: Bindery has no switch to turn recording off);
 * - on: the same server recording events, the organization having no webhook;
 * - on + webhook: the same server while one active webhook subscribed to `*` points at a receiver
 *   this process runs, so each event also writes a delivery and its job, which that server sends.
 *
 * One server process runs every mode (bench/instrument.mjs sets the switch in it), in many short
 * rounds: each round runs every mode (a few operations of each path), the order of the modes going
 * through all six orders in turn, so warm-up, caches, the growth of the database and the noise of
 * a shared machine fall on all of them alike. Operations run one at a time, each prepared untimed (a
 * merge's change request and its edit); ms/op is the client's wall time of the operation (1 /
 * throughput at one connection); CPU µs/op and queries/op are the serving process's, from just
 * before the operation until its deliveries (if any) have reached the receiver, so they include
 * sending them.
 *
 * Why many operations: single operations vary a lot (on SQLite an operation that happens to
 * trigger a checkpoint of the write-ahead log takes 15–20 ms instead of 2–5), so a few dozen
 * operations per mode put ±10 % of noise on the comparison. The table gives each ratio to off with
 * a 95 % interval, from resampling the rounds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from './processes.js';
import { Api, type Seeded } from './seed.js';
import { sleep } from './util.js';

/** What this comparison needs of a started server (bench/processes.ts). */
export type BenchServer = Pick<Server, 'baseUrl' | 'pid' | 'stats' | 'setEnv' | 'stop'>;

export interface EventCostOptions {
  /** Starts a Bindery server on the seeded database with these extra variables. */
  start(env: Record<string, string>): Promise<BenchServer>;
  rounds: number;
  /** Operations of each write path per mode and round. */
  opsPerRound: number;
  log(line: string): void;
}

export const MODES = ['off', 'on', 'on + webhook'] as const;
export type Mode = (typeof MODES)[number];

/** Totals of operations of one path in one mode: of the whole run, and of each round. */
export interface EventCostTotals {
  ops: number;
  ms: number;
  cpuMicros: number;
  queries: number;
}

export interface EventCostRow extends EventCostTotals {
  path: string;
  mode: Mode;
  /** The same totals, round by round (the interval resamples them). */
  rounds: EventCostTotals[];
}

/** Every order of the three modes: round r runs them in ORDERS[r % 6]. */
const ORDERS: Mode[][] = MODES.flatMap((a) =>
  MODES.flatMap((b) => MODES.filter((c) => c !== a && c !== b && a !== b).map((c) => [a, b, c])),
);

/** A local webhook receiver answering 204 to everything; counts what it received. */
async function startReceiver(): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface WritePath {
  name: string;
  /** Events one operation records (so deliveries it makes, with the webhook). */
  events: number;
  /** Untimed preparation of operation `i` (through `api`); returns what it needs. */
  prepare(api: Api, i: number): Promise<unknown>;
  run(api: Api, prepared: unknown): Promise<unknown>;
}

function writePaths(s: Seeded): WritePath[] {
  const space = s.contentSpaceId;
  let editing: string | null = null;
  // Creating a collection costs more as the organization's collections grow (the tree is read
  // again after each): the one created last is deleted, untimed, before the next is timed, so every
  // mode creates its collections next to the same ones.
  let created: string | null = null;
  return [
    {
      name: 'POST /orgs/{id}/collections',
      events: 1, // collection.created
      prepare: async (api) => {
        if (created) await api.call('DELETE', `/collections/${created}`);
        created = null;
        return undefined;
      },
      run: async (api) => {
        created = (await api.call('POST', `/orgs/${s.organizationId}/collections`, { title: 'Timed collection' })).id;
      },
    },
    {
      name: 'POST …/change-requests/{crId}/content (update one page)',
      events: 1, // change_request.updated
      prepare: async (api) => {
        editing ??= (await api.call('POST', `/spaces/${space}/change-requests`, { subject: 'Timed edits' })).id;
        return editing;
      },
      run: (api, id) =>
        api.call('POST', `/spaces/${space}/change-requests/${id}/content`, {
          changes: [{ operation: 'update_page', page: s.pageId, document: { markdown: `Edited ${Math.random()}\n` } }],
        }),
    },
    {
      name: 'POST …/change-requests/{crId}/merge (one page changed)',
      events: 2, // change_request.merged, space.content.updated
      prepare: async (api, i) => {
        const cr = await api.call('POST', `/spaces/${space}/change-requests`, { subject: `Merge ${i}` });
        await api.call('POST', `/spaces/${space}/change-requests/${cr.id}/content`, {
          changes: [{ operation: 'update_page', page: s.pageId, title: `Merged ${Math.random()}` }],
        });
        return cr.id;
      },
      run: (api, id) => api.call('POST', `/spaces/${space}/change-requests/${id}/merge`, {}),
    },
  ];
}

export async function measureEventCost(s: Seeded, options: EventCostOptions): Promise<EventCostRow[]> {
  const receiver = await startReceiver();
  // One server for every mode: `off` sets BINDERY_BENCH_NO_EVENTS in it, the others clear it. Two
  // processes (one per mode) differed by 30–50 % for reasons of their own, more than the cost measured.
  // The job queue polled every 100 ms (default 1 s, the same in every mode): a merge's second
  // delivery waits for its first (a webhook's deliveries go in order) and is then picked up by a
  // poll, so with the default each merge with the webhook took ~2 s of waiting (its preparation's
  // deliveries, then its own) and the comparison a quarter of an hour per database.
  const server = await options.start({ FETCH_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '100' });
  const api = new Api(server.baseUrl, s.token);
  const paths = writePaths(s);
  const totals = new Map<string, EventCostRow>();
  try {
    // Round 0 warms the process up (every mode and path once, untimed): the first operations of a
    // fresh process run cold code, which made whichever mode went first look slowest.
    for (let round = 0; round <= options.rounds; round++) {
      if (round === 0 || round % 10 === 0 || round === options.rounds) {
        options.log(round === 0 ? '[events] warm-up round' : `[events] round ${round}/${options.rounds}`);
      }
      // Each mode comes first, second and last, and after each other mode, equally often.
      for (const mode of ORDERS[round % ORDERS.length] as Mode[]) {
        await server.setEnv('BINDERY_BENCH_NO_EVENTS', mode === 'off' ? '1' : null);
        let webhookId: string | null = null;
        if (mode === 'on + webhook') {
          const hook = await api.call('POST', `/orgs/${s.organizationId}/webhooks`, {
            url: receiver.url,
            events: ['*'],
          });
          webhookId = hook.id;
        }
        /** Waits (untimed) until no delivery of the webhook is pending. */
        const drained = async () => {
          if (!webhookId) return;
          for (const end = Date.now() + 60_000; Date.now() < end; await sleep(20)) {
            const page = await api.call(
              'GET',
              `/orgs/${s.organizationId}/webhooks/${webhookId}/deliveries?status=pending&limit=1`,
            );
            if (page.items.length === 0) return;
          }
          throw new Error('webhook deliveries still pending after 60 s');
        };
        /**
         * Waits until the deliveries of the operation just made have arrived (no request to the
         * server): all of them — a delivery waits for the older ones of its webhook, so a merge's
         * second comes a job poll after the first, and waiting for a pause instead left its
         * sending out of the operation's CPU.
         */
        const delivered = async (before: number, expected: number) => {
          if (!webhookId) return;
          const end = Date.now() + 60_000;
          while (receiver.received() < before + expected) {
            if (Date.now() > end) throw new Error(`${expected} deliveries expected, not all arrived within 60 s`);
            await sleep(1);
          }
        };
        try {
          for (const path of paths) {
            let row = totals.get(`${mode}\n${path.name}`);
            if (!row) {
              row = { path: path.name, mode, ops: 0, ms: 0, cpuMicros: 0, queries: 0, rounds: [] };
              if (round > 0) totals.set(`${mode}\n${path.name}`, row);
            }
            const inRound: EventCostTotals = { ops: 0, ms: 0, cpuMicros: 0, queries: 0 };
            if (round > 0) row.rounds.push(inRound);
            for (let i = 0; i < (round === 0 ? 1 : options.opsPerRound); i++) {
              const prepared = await path.prepare(api, i);
              await drained();
              const received = receiver.received();
              const before = await server.stats();
              const started = performance.now();
              await path.run(api, prepared);
              const ms = performance.now() - started;
              await delivered(received, path.events);
              const after = await server.stats();
              const cpuMicros = before && after ? after.cpuMicros - before.cpuMicros : 0;
              const queries = before && after ? after.queries - before.queries : 0;
              for (const t of [row, inRound]) {
                t.ops++;
                t.ms += ms;
                t.cpuMicros += cpuMicros;
                t.queries += queries;
              }
            }
          }
        } finally {
          if (webhookId) {
            await drained();
            await api.call('DELETE', `/orgs/${s.organizationId}/webhooks/${webhookId}`);
          }
        }
      }
    }
    options.log(`[events] the receiver got ${receiver.received()} deliveries`);
  } finally {
    await server.stop();
    await receiver.close();
  }
  return [...totals.values()];
}

/** A small seeded generator (mulberry32), so that the same measurements give the same interval. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Throughput of `mode` relative to `off` (off's ms per operation over the mode's) over some rounds. */
function throughputRatio(off: EventCostTotals[], mode: EventCostTotals[], picked: number[]): number {
  let offMs = 0;
  let offOps = 0;
  let ms = 0;
  let ops = 0;
  for (const i of picked) {
    offMs += (off[i] as EventCostTotals).ms;
    offOps += (off[i] as EventCostTotals).ops;
    ms += (mode[i] as EventCostTotals).ms;
    ops += (mode[i] as EventCostTotals).ops;
  }
  return offMs / offOps / (ms / ops);
}

/**
 * A 95 % interval of the throughput ratio: the rounds resampled with replacement (each drawn round
 * brings both modes' operations of that round, so what a round shared — a slow moment of the
 * machine — stays paired), 2,000 times.
 */
function ratioInterval(off: EventCostTotals[], mode: EventCostTotals[]): [number, number] {
  const next = random(14);
  const n = Math.min(off.length, mode.length);
  const ratios: number[] = [];
  for (let b = 0; b < 2_000; b++) {
    const picked = Array.from({ length: n }, () => Math.floor(next() * n));
    ratios.push(throughputRatio(off, mode, picked));
  }
  ratios.sort((a, b) => a - b);
  return [ratios[49] as number, ratios[1_949] as number];
}

/**
 * The table rows: per write path and mode, ms/op, CPU µs/op and queries/op, with the throughput
 * relative to `off` (and its 95 % interval) and the CPU relative to `off`.
 */
export function eventCostTable(rows: EventCostRow[]): string[][] {
  const offOf = (path: string) => rows.find((r) => r.path === path && r.mode === 'off') as EventCostRow;
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  return rows
    .sort((a, b) => a.path.localeCompare(b.path) || MODES.indexOf(a.mode) - MODES.indexOf(b.mode))
    .map((r) => {
      const base = offOf(r.path);
      const ms = r.ms / r.ops;
      const cpu = r.cpuMicros / r.ops;
      const [low, high] = r.mode === 'off' ? [1, 1] : ratioInterval(base.rounds, r.rounds);
      return [
        r.path,
        r.mode,
        String(r.ops),
        ms.toFixed(2),
        cpu.toFixed(0),
        (r.queries / r.ops).toFixed(1),
        percent(base.ms / base.ops / ms),
        r.mode === 'off' ? '' : `${percent(low)}–${percent(high)}`,
        percent(cpu / (base.cpuMicros / base.ops)),
      ];
    });
}
