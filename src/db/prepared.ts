/**
 * Precompiled queries: a Kysely query built and compiled once, then run with new parameter values.
 *
 * When to use it: for a query that runs on (nearly) every request with the same shape and only its
 * values change (the token check, the caller's membership, a resource read by id). Building a query
 * with Kysely's builder and compiling it to SQL cost more CPU than running it (a profile of
 * GET /orgs/{id}: building ~11 %, compiling ~6 %, executing ~11 %). Not for queries whose shape
 * depends on the input (optional filters, `in (…)` lists, dynamic ordering): build those as usual.
 *
 *   const orgById = prepare((db, p: { id: string }) =>
 *     db.selectFrom('organizations').selectAll().where('id', '=', p.id),
 *   );
 *   const org = await orgById.first(db, { id });   // db: the app's Db or a transaction
 *
 * How: `build` runs once per dialect with a unique marker string standing for each argument; the
 * compiled parameters that are markers are replaced by the call's arguments, the others (constants
 * written in the query) are kept. Rules for `build`: every argument is used as a plain value (not
 * in `sql.lit`, `sql.raw`, `sql.ref` or anything that puts it into the SQL text, which is refused
 * at first use) and the query's shape must not depend on the argument values (they are markers).
 * Arguments may be any value the driver binds (strings, numbers, null). Results go through the
 * executor as usual (on SQLite, a read outside transactions runs on the cached statement at once:
 * `readNowOnSqlite`); the compiled query is shared, so a plugin keyed by query id would see one id.
 *
 * Writes work the same way (the event's insert, src/events/repo.ts: every column listed as its own
 * argument, since the builder reads the keys of `values`, and the markers object has none). In a
 * transaction they run in it, through Kysely. Outside one, on SQLite, a write that returns rows
 * (`… returning`) runs at once on the cached statement like a read — safe for the same reason (it
 * runs to completion synchronously), and the statement cache's write tracking sees it
 * (db/writes.ts); one that returns nothing goes through Kysely.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { readNowOnSqlite } from './database.js';
import type { Database } from './schema.js';

type Args = Record<string, unknown>;

/** Where each compiled parameter comes from: an argument's name, or a constant of the query. */
type Slot = { arg: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
}

const MARKER = '\u0000bindery-arg:';

export interface PreparedQuery<A extends Args, R> {
  /** Every row. */
  all(db: Kysely<Database>, args: A): Promise<R[]>;
  /** The first row, or undefined. */
  first(db: Kysely<Database>, args: A): Promise<R | undefined>;
}

/** A query compiled once per dialect (see the module comment); `build` must not run other queries. */
export function prepare<A extends Args, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): PreparedQuery<A, R> {
  // By adapter class: the app's Db and its transactions share the dialect, so the compiled SQL.
  const compiled = new Map<unknown, Compiled>();

  function compile(db: Kysely<Database>): Compiled {
    const names = new Set<string>();
    const markers = new Proxy({} as A, {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        names.add(name);
        return `${MARKER}${name}`;
      },
    });
    const query = build(db, markers).compile();
    if (query.sql.includes(MARKER)) {
      throw new Error('prepare: an argument was written into the SQL text; pass arguments as values only');
    }
    const used = new Set<string>();
    const slots = query.parameters.map((value): Slot => {
      if (typeof value !== 'string' || !value.includes(MARKER)) return { value };
      const arg = value.slice(MARKER.length);
      if (value.startsWith(MARKER) && names.has(arg)) {
        used.add(arg);
        return { arg };
      }
      throw new Error('prepare: an argument was combined into another value; pass each argument as its own value');
    });
    for (const name of names) {
      if (!used.has(name)) throw new Error(`prepare: the argument "${name}" is not a parameter of the query`);
    }
    return { query, slots };
  }

  async function run(db: Kysely<Database>, args: A): Promise<R[]> {
    const key = db.getExecutor().adapter.constructor;
    let entry = compiled.get(key);
    if (!entry) {
      entry = compile(db);
      compiled.set(key, entry);
    }
    const parameters = entry.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    const now = readNowOnSqlite<R>(db, entry.query.sql, parameters);
    if (now) return now;
    const result = await db.executeQuery<R>({ ...entry.query, parameters });
    return result.rows;
  }

  return {
    all: run,
    async first(db, args) {
      return (await run(db, args))[0];
    },
  };
}
