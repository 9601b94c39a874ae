// Preloaded into the benchmarked server (`node --import ./bench/instrument.mjs bin/bindery.js serve`):
// counts the SQL statements the process executes, at the driver (better-sqlite3 statement runs,
// pg `Client.query` calls), and answers `{type: 'stats'}` on the IPC channel with that count, the
// process's CPU time and RSS, and sets an environment variable on `{type: 'env'}`. Nothing of
// Bindery is changed; the count includes BEGIN/COMMIT. With BENCH_TAG_PROCESS=1, answers carry the
// process id (below).
//
// The events bench's `off` mode (bench/events.ts) is made here, not in Bindery: while
// BINDERY_BENCH_NO_EVENTS is `1` in this process, the event's insert (`insert into "events" …
// returning` the organization's active webhooks, src/events/repo.ts) is not sent to the database
// and answers "no active webhook", so a change costs what it would without recording (no event row,
// no delivery); it is not counted either. Bindery itself has no switch to turn recording off.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let queries = 0;

const EVENT_INSERT = /^\s*insert\s+into\s+"events"/i;
/** Whether `sql` is the event's insert and recording is off for the bench. */
const skipped = (sql) =>
  process.env.BINDERY_BENCH_NO_EVENTS === '1' && typeof sql === 'string' && EVENT_INSERT.test(sql);
/** The row the skipped insert answers: the organization has no active webhook. */
const NO_WEBHOOKS = { active_webhooks: 0 };

// Only the driver this server will use is loaded (and patched): loading the other would add its
// memory to the RSS the bench reports.
if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(...args) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    if (skipped(text) && typeof args.at(-1) !== 'function') {
      return Promise.resolve({ command: 'INSERT', rowCount: 1, rows: [NO_WEBHOOKS], fields: [] });
    }
    queries++;
    return query.apply(this, args);
  };
} else {
  const SQLite = require('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  const answers = {
    all: () => [NO_WEBHOOKS],
    get: () => NO_WEBHOOKS,
    run: () => ({ changes: 1, lastInsertRowid: 0 }),
    iterate: () => [NO_WEBHOOKS][Symbol.iterator](),
  };
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statement[method];
    statement[method] = function counted(...args) {
      if (skipped(this.source)) return answers[method]();
      queries++;
      return original.apply(this, args);
    };
  }
}

// The mixed-traffic bench's stale check (bench/mixed-stale.ts) reads each resource through every
// worker of a WORKERS=2 server: with BENCH_TAG_PROCESS=1 each answer names the process that made it
// (`x-bench-pid`), so the check knows which worker it reached. Off by default: it adds bytes.
if (process.env.BENCH_TAG_PROCESS === '1') {
  const http = require('node:http');
  const writeHead = http.ServerResponse.prototype.writeHead;
  http.ServerResponse.prototype.writeHead = function tagged(...args) {
    if (!this.headersSent) this.setHeader('x-bench-pid', String(process.pid));
    return writeHead.apply(this, args);
  };
}

process.on('message', (message) => {
  // The events bench switches recording off and on in this one process (BINDERY_BENCH_NO_EVENTS,
  // read above), so both modes run with the same warm caches, JIT state and job worker.
  if (message?.type === 'env' && process.send) {
    if (message.value === null) delete process.env[message.key];
    else process.env[message.key] = message.value;
    process.send({ type: 'env', id: message.id });
    return;
  }
  if (message?.type !== 'stats' || !process.send) return;
  const cpu = process.cpuUsage();
  process.send({
    type: 'stats',
    id: message.id,
    queries,
    cpuMicros: cpu.user + cpu.system,
    rss: process.memoryUsage().rss,
  });
});
