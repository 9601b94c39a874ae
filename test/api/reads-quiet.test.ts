/**
 * Reading changes nothing: every GET of the API, taken from the app's own OpenAPI document (so a
 * new route is swept without anyone listing it), is read twice over a world holding one of
 * everything. The first reads may write only what MADE_ON_FIRST_READ lists (nothing today: keys and
 * settings are made at start or by the write that makes their owner); the second must commit no
 * write (the driver's counter) and let no other process learn of a change: on PostgreSQL, no table's statement trigger
 * may notify the change channel. A statement that changes no row (an INSERT … ON CONFLICT DO
 * NOTHING that conflicts) still fires that trigger, and every other process then empties its
 * caches: 9af498e fixed one GET that did so on every read.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { CHANGES_CHANNEL } from '../../src/db/change-triggers.js';
import { driverOf } from '../../src/db/database.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { jobsIdle, type ReadWorld, readWorld } from '../helpers/read-world.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

const PARTNER_KEY = 'reads-quiet-partner-key';

/**
 * GETs the sweep does not read, with the reason. The sweep fails on a GET that it cannot fill from
 * the world and that is not listed here, so what goes unread is always written down. None today.
 */
const UNFILLABLE: Record<string, string> = {};

/**
 * GETs whose answer on the world is not a 2xx, with the status and the reason. Any other status
 * fails the sweep: a read answered 404 proves nothing about the route's handler. None today.
 */
const NOT_2XX: Record<string, { status: number; why: string }> = {};

/**
 * GETs that may write on their first read, with the reason. A GET whose first read writes and is not
 * listed fails the sweep: content, settings and keys are made by the writes that need them.
 */
const MADE_ON_FIRST_READ: Record<string, string> = {};

// A database of this file's own: on PostgreSQL, the other files' writes to the shared database
// would be heard on the change channel, and their jobs claimed by this harness's worker.
let database: FreshDatabase;
let h: Harness;
let git: GitServer;
let receiver: Receiver;
let world: ReadWorld;
beforeAll(async () => {
  database = await freshDatabase('reads-quiet');
  h = await createHarness({
    ownDatabase: database.url,
    // Every read reaches its handler: an answer served from memory would hide a handler's writes.
    responseCacheBytes: 0,
    // The world's jobs (OpenAPI processing, webhook deliveries, the Git export) run here, against
    // the receiver and the Git server on loopback.
    jobConcurrency: 2,
    jobPollMs: 50,
    fetchAllowPrivate: true,
    partnerKeys: [PARTNER_KEY],
  });
  git = await startGitServer();
  receiver = await startReceiver();
  world = await readWorld(h, git, receiver);
}, 180_000);
afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await git?.close();
  await database?.drop();
});

interface Operation {
  id: string;
  /** The OpenAPI path template, `/v1/orgs/{organizationId}/…`. */
  path: string;
  /** Names of the required query parameters. */
  query: string[];
}

type OpenApiDocument = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
};
type Parameter = { in: string; name: string; required?: boolean };

/** Every GET operation the app declares, from the OpenAPI document it serves. */
function getOperations(app: App): Operation[] {
  const doc = app.swagger() as unknown as OpenApiDocument;
  return Object.entries(doc.paths).flatMap(([path, methods]) => {
    const get = methods.get;
    if (!get) return [];
    const query = (get.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name);
    return [{ id: get.operationId ?? `GET ${path}`, path, query }];
  });
}

/** The URL reading `op` in the world, or the names of the parameters the world has no value for. */
function urlOf(op: Operation): { url: string } | { missing: string[] } {
  const missing: string[] = [];
  const value = (name: string) => {
    const own = op.path.includes('{changeRequestId}') ? world.inChangeRequest[name] : undefined;
    const found = own ?? world.params[name];
    if (found === undefined) missing.push(name);
    return found ?? '';
  };
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
  const query = new URLSearchParams(op.query.map((name) => [name, value(name)])).toString();
  return missing.length > 0 ? { missing } : { url: query ? `${path}?${query}` : path };
}

interface Read {
  id: string;
  url: string;
}

/** The operations the sweep reads, with their URLs. */
function reads(): Read[] {
  return getOperations(h.app).flatMap((op) => {
    const filled = urlOf(op);
    return 'url' in filled && !(op.id in UNFILLABLE) ? [{ id: op.id, url: filled.url }] : [];
  });
}

/**
 * GETs `url` as the admin, with the partner key that `/v1/ads/*` asks for besides the token. The
 * server-sent event streams (ask, questions) are read whole: without AI_BASE_URL the answers are
 * extractive and the streams end by themselves.
 */
async function read(url: string): Promise<number> {
  const res = await world.client.request('GET', url, undefined, { 'x-service-partner-key': PARTNER_KEY });
  return res.status;
}

/** The reads whose status is not the one expected (2xx, or as NOT_2XX says), as `id GET url → status`. */
function unexpected(statuses: Map<Read, number>): string[] {
  return [...statuses]
    .filter(([r, status]) => {
      const expected = NOT_2XX[r.id]?.status;
      return expected === undefined ? status < 200 || status >= 300 : status !== expected;
    })
    .map(([r, status]) => `${r.id} GET ${r.url} → ${status}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What another process learns of this one's changes (src/http/change-feed.ts), from a connection
 * of its own: on PostgreSQL the notifications on the change channel, on SQLite the file's
 * `data_version`. `mark()` changes exactly when a change has been learnt since the last mark.
 */
interface OtherProcess {
  mark(): Promise<string>;
  /** PostgreSQL: the notifications heard (payload: the sender's backend pid). */
  heard: string[];
  close(): Promise<void>;
}

async function otherProcess(): Promise<OtherProcess> {
  const heard: string[] = [];
  if (!database.postgres) {
    const sqlite = new SQLite(database.url, { readonly: true });
    return {
      mark: async () => String(sqlite.pragma('data_version', { simple: true })),
      heard,
      close: async () => {
        sqlite.close();
      },
    };
  }
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (message) => {
    // A peer's check of its own listening connection ("probe:…") is no change of data.
    if (!message.payload?.startsWith('probe:')) heard.push(message.payload ?? '');
  });
  await listener.query(`listen ${CHANGES_CHANNEL}`);
  return {
    async mark() {
      // A notification sent by a commit that is already answered reaches this connection before
      // the answer to this query (PostgreSQL sends pending notifications before it is ready again).
      await listener.query('select 1');
      return String(heard.length);
    },
    heard,
    close: () => listener.end(),
  };
}

describe('reading changes nothing', () => {
  it('fills every GET operation from the world, or says why not', () => {
    const operations = getOperations(h.app);
    expect(operations.length).toBeGreaterThan(100);
    const unlisted = operations.flatMap((op) => {
      const filled = urlOf(op);
      if (!('missing' in filled) || op.id in UNFILLABLE) return [];
      return [`${op.id} (${op.path}): no value for ${filled.missing.join(', ')}`];
    });
    expect(unlisted, 'add the missing values to test/helpers/read-world.ts, or list the operation').toEqual([]);
    // A listed operation that is gone, or that the world now fills, is listed for nothing.
    const ids = new Set(operations.map((op) => op.id));
    const stale = [...Object.keys(UNFILLABLE), ...Object.keys(NOT_2XX)].filter((id) => !ids.has(id));
    const fillable = Object.keys(UNFILLABLE).filter((id) => {
      const op = operations.find((o) => o.id === id);
      return op && 'url' in urlOf(op);
    });
    expect({ stale, fillable }).toEqual({ stale: [], fillable: [] });
  });

  it('reads every GET twice: the second reads write nothing and tell no other process of a change', async () => {
    const all = reads();
    const writes = driverOf(h.db)?.writes;
    if (!writes) throw new Error('no write counter under the harness database');

    // First reads: only what MADE_ON_FIRST_READ lists may write.
    const first = new Map<Read, number>();
    const firstWriters: string[] = [];
    for (const r of all) {
      const committed = writes.committed;
      first.set(r, await read(r.url));
      if (writes.committed !== committed) firstWriters.push(r.id);
    }
    expect(unexpected(first)).toEqual([]);
    expect(firstWriters.filter((id) => !(id in MADE_ON_FIRST_READ))).toEqual([]);
    await jobsIdle(h); // in case a read enqueued a job, whose run would change data during the second pass

    const other = await otherProcess();
    try {
      const second = new Map<Read, number>();
      const writers: string[] = [];
      for (const r of all) {
        const [committed, mark] = [writes.committed, await other.mark()];
        second.set(r, await read(r.url));
        const learnt = (await other.mark()) !== mark;
        if (writes.committed !== committed || learnt) {
          const elsewhere = learnt ? ', and another process learnt of a change' : '';
          writers.push(`${r.id} (GET ${r.url}): ${writes.committed - committed} committed write(s)${elsewhere}`);
        }
      }
      expect(writers, 'these GETs changed data on a second read').toEqual([]);
      expect(unexpected(second)).toEqual([]);
      expect([...second.values()]).toEqual([...first.values()]);

      // A change made now is learnt, so the silence before it is not the observer's deafness. Made
      // on the app's connections but not through the API: an API change would be delivered to the
      // world's webhook, whose delivery (a change of its own) would be heard too.
      const before = await other.mark();
      const organization = world.params.organizationId as string;
      await h.db.updateTable('organizations').set({ title: 'Heard' }).where('id', '=', organization).execute();
      expect(await other.mark()).not.toBe(before);
      if (database.postgres) {
        await sleep(200); // a notification of a read sent late would arrive by now
        expect(other.heard).toHaveLength(1);
      }
    } finally {
      await other.close();
    }
  });
});
