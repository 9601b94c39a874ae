/**
 * Counts the SQL statements this process sends to its database, at the driver, as `npm run bench`
 * does (bench/instrument.mjs): every run of a better-sqlite3 statement, every pg `Client.query`.
 * Install it before the harness is made (`createHarness`): on PostgreSQL each pooled connection
 * binds its `query` when it connects (src/db/database.ts names prepared statements there), so
 * connections opened before would go uncounted. `restore()` puts the drivers back (test files
 * share their worker's modules).
 *
 * Not counted: SQLite's `pragma data_version`, which the change feed reads at the start of
 * requests (src/http/change-feed.ts) to learn of other processes' commits; it reads no table, is
 * shared by the requests of one millisecond, and is not the handler's.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const NOT_COUNTED = /^\s*pragma\s+data_version\s*$/i;

export interface QueryCounter {
  /** The SQL texts sent while `during` ran (the count is their length). */
  during(run: () => Promise<unknown>): Promise<string[]>;
  restore(): void;
}

export function countQueries(): QueryCounter {
  let sent: string[] | null = null;
  const record = (sql: unknown) => {
    if (sent && typeof sql === 'string' && !NOT_COUNTED.test(sql)) sent.push(sql);
  };
  const restores: (() => void)[] = [];

  const pg = require('pg') as typeof import('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    record(typeof first === 'string' ? first : first?.text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  restores.push(() => {
    pg.Client.prototype.query = query;
  });

  const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statement[method] as (...a: unknown[]) => unknown;
    statement[method] = function counted(this: { source: string }, ...args: unknown[]) {
      record(this.source);
      return original.apply(this, args);
    };
    restores.push(() => {
      statement[method] = original;
    });
  }

  return {
    async during(run) {
      if (sent) throw new Error('countQueries: one measurement at a time');
      sent = [];
      try {
        await run();
        return sent;
      } finally {
        sent = null;
      }
    },
    restore() {
      for (const undo of restores.splice(0)) undo();
    },
  };
}
