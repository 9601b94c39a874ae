// Preloaded into the benchmarked server (`node --import ./bench/instrument.mjs bin/bindery.js serve`):
// counts the SQL statements the process executes, at the driver (better-sqlite3 statement runs,
// pg `Client.query` calls), and answers `{type: 'stats'}` on the IPC channel with that count, the
// process's CPU time and RSS, and sets an environment variable on `{type: 'env'}`. Nothing of
// Bindery is changed; the count includes BEGIN/COMMIT.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let queries = 0;

// Only the driver this server will use is loaded (and patched): loading the other would add its
// memory to the RSS the bench reports.
if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(...args) {
    queries++;
    return query.apply(this, args);
  };
} else {
  const SQLite = require('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statement[method];
    statement[method] = function counted(...args) {
      queries++;
      return original.apply(this, args);
    };
  }
}

process.on('message', (message) => {
  // The events bench switches recording off and on in this one process (BINDERY_BENCH_NO_EVENTS),
  // so both modes run with the same warm caches, JIT state and job worker.
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
