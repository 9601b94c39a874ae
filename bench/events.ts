/**
 * What recording events costs the write paths (#14: "recording events costs a write path less than
 * 10 % of its throughput"). The same write paths run against one seeded database in three modes:
 *
 * - off: BINDERY_BENCH_NO_EVENTS=1 set in the server (a benchmark-only switch: `recordEvent`
 *   writes nothing);
 * - on: the same server recording events, the organization having no webhook;
 * - on + webhook: the same server while one active webhook subscribed to `*` points at a receiver
 *   this process runs, so each event also writes a delivery and its job, which that server sends.
 *
 * One server process runs every mode (bench/instrument.mjs sets the switch in it), and the order
 * of the modes turns each round, so warm-up, caches and the noise of a shared machine fall on all
 * of them alike. Operations run one at a time, each prepared untimed (a merge's
 * change request and its edit); ms/op is the client's wall time of the operation (1 / throughput
 * at one connection); CPU µs/op and queries/op are the serving process's, from just before the
 * operation until its deliveries (if any) have reached the receiver, so they include sending them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Api, type Seeded } from './seed.js';

export interface BenchServer {
  baseUrl: string;
  pid: number;
  stats(): Promise<{ queries: number; cpuMicros: number } | null>;
  /** Sets (or, with null, removes) an environment variable in the running server. */
  setEnv(key: string, value: string | null): Promise<void>;
  stop(): Promise<void>;
}

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

export interface EventCostRow {
  path: string;
  mode: Mode;
  ops: number;
  ms: number;
  cpuMicros: number;
  queries: number;
}

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface WritePath {
  name: string;
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
  const server = await options.start({ FETCH_ALLOW_PRIVATE: 'true' });
  const api = new Api(server.baseUrl, s.token);
  const paths = writePaths(s);
  const totals = new Map<string, EventCostRow>();
  try {
    // Round 0 warms the process up (every mode and path once, untimed): the first operations of a
    // fresh process run cold code, which made whichever mode went first look slowest.
    for (let round = 0; round <= options.rounds; round++) {
      options.log(round === 0 ? '[events] warm-up round' : `[events] round ${round}/${options.rounds}`);
      // The order of the modes turns each round, so none always runs first (or after another).
      for (const mode of MODES.map((_, i) => MODES[(i + round) % MODES.length] as Mode)) {
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
        /** Waits until the deliveries of the operation just made have arrived (no request to the server). */
        const delivered = async (before: number) => {
          if (!webhookId) return;
          const end = Date.now() + 60_000;
          while (receiver.received() === before) {
            if (Date.now() > end) throw new Error('no delivery within 60 s');
            await sleep(1);
          }
          for (let seen = receiver.received(); ; seen = receiver.received()) {
            await sleep(50);
            if (receiver.received() === seen) return;
          }
        };
        try {
          for (const path of paths) {
            const row = totals.get(`${mode}\n${path.name}`) ?? {
              path: path.name,
              mode,
              ops: 0,
              ms: 0,
              cpuMicros: 0,
              queries: 0,
            };
            if (round > 0) totals.set(`${mode}\n${path.name}`, row);
            for (let i = 0; i < (round === 0 ? 1 : options.opsPerRound); i++) {
              const prepared = await path.prepare(api, i);
              await drained();
              const received = receiver.received();
              const before = await server.stats();
              const started = performance.now();
              await path.run(api, prepared);
              row.ms += performance.now() - started;
              await delivered(received);
              const after = await server.stats();
              row.ops++;
              if (before && after) {
                row.cpuMicros += after.cpuMicros - before.cpuMicros;
                row.queries += after.queries - before.queries;
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

/** The table rows: per write path and mode, ms/op, CPU µs/op and queries/op, with ratios to `off`. */
export function eventCostTable(rows: EventCostRow[]): string[][] {
  const offOf = (path: string) => rows.find((r) => r.path === path && r.mode === 'off') as EventCostRow;
  return rows
    .sort((a, b) => a.path.localeCompare(b.path) || MODES.indexOf(a.mode) - MODES.indexOf(b.mode))
    .map((r) => {
      const base = offOf(r.path);
      const ms = r.ms / r.ops;
      const cpu = r.cpuMicros / r.ops;
      return [
        r.path,
        r.mode,
        String(r.ops),
        ms.toFixed(2),
        cpu.toFixed(0),
        (r.queries / r.ops).toFixed(1),
        `${((base.ms / base.ops / ms) * 100).toFixed(1)}%`,
        `${((cpu / (base.cpuMicros / base.ops)) * 100).toFixed(1)}%`,
      ];
    });
}
