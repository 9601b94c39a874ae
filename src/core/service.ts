/**
 * What every service function shares. Each change of data has exactly one service function
 * (`src/api/<area>/service.ts`, or `src/services/` for a change that spans areas): it takes a
 * `ServiceContext` (who acts, on which database), authorizes through `src/permissions`, makes the
 * change inside one transaction (`inTransaction`), and returns plain data for the route to present.
 * Route handlers only validate, call the service and present; jobs and the CLI call the same
 * functions with a system or CLI actor. Keeping every write behind one function is what lets the
 * change be recorded (audit log, webhooks) in the transaction that makes it.
 */
import type { Transaction } from 'kysely';
import { transactionEnded } from '../db/after-commit.js';
import type { Db } from '../db/database.js';
import type { Database, UserRow } from '../db/schema.js';
import { inWriteScope } from '../db/write-scope.js';
import type { Urls } from '../lib/urls.js';
import { guarded } from './event-guard.js';
import type { WriteWithoutEvent } from './unevented.js';

/** Who makes a change: a user through an access token, the CLI, or the system (jobs). */
export interface Actor {
  type: 'user' | 'system';
  /** The acting user; null for the system. */
  user: UserRow | null;
  /** The access token the change came through, when it came through the API. */
  tokenId: string | null;
  source: 'api' | 'cli' | 'system';
}

export interface ServiceContext {
  db: Db;
  urls: Urls;
  actor: Actor;
}

/** The database handle a service or repo works on: the app's, or the transaction it is part of. */
export type DbOrTrx = Db | Transaction<Database>;

export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', user: null, tokenId: null, source: 'system' });

/** A user acting through the command line (`bindery bootstrap`). */
export function cliActor(user: UserRow): Actor {
  return { type: 'user', user, tokenId: null, source: 'cli' };
}

/** The acting user of a context, for services that only users can call (the API's writes). */
export function actingUser(ctx: ServiceContext): UserRow {
  if (!ctx.actor.user) throw new Error('this operation needs an acting user');
  return ctx.actor.user;
}

/**
 * Runs `fn` in one transaction, or inside the caller's when `db` already is one (so a service can
 * call another and both changes commit or roll back together).
 *
 * A transaction this opens must record an event if it changes data (src/core/event-guard.ts): else it
 * is rolled back with an error, unless `options.withoutEvent` names the calling service function
 * and that function is on the list of writes without events (src/core/unevented.ts). Inside the
 * caller's transaction, the caller's opening decides.
 *
 * The transaction is one unit of work for the caches (src/db/write-scope.ts): what its code declares
 * it changes (its event's organization, the member rows it writes) is what its commit invalidates.
 */
export async function inTransaction<T>(
  db: DbOrTrx,
  fn: (trx: Transaction<Database>) => Promise<T>,
  options: { withoutEvent?: WriteWithoutEvent } = {},
): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return inWriteScope(() => openTransaction(db, fn, options));
}

async function openTransaction<T>(
  db: DbOrTrx,
  fn: (trx: Transaction<Database>) => Promise<T>,
  options: { withoutEvent?: WriteWithoutEvent },
): Promise<T> {
  let opened: Transaction<Database> | undefined;
  try {
    return await db.transaction().execute(async (raw) => {
      const { trx, guard } = guarded(raw);
      opened = trx;
      const result = await fn(trx);
      guard.check(options.withoutEvent);
      return result;
    });
  } finally {
    // Committed or rolled back: either way the hooks run (they drop cached values, wake workers).
    if (opened) transactionEnded(opened);
  }
}

export { afterCommit } from '../db/after-commit.js';
