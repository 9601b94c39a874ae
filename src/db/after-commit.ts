/**
 * Work to do once a transaction has ended (cache invalidation, waking job workers): registered with
 * `afterCommit` by whatever writes in the transaction, run by `inTransaction` (src/core/service.ts)
 * when the outermost transaction it opened has committed or rolled back. Lives below core and jobs
 * so that both can use it.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

const endHooks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `hook` once what `db` wrote is visible to other connections: at once outside a transaction,
 * else when the outermost `inTransaction` that opened it has ended. For cache invalidation, which
 * must happen again after the commit (a reader between the write and the commit still sees, and
 * could cache, the old value), and for waking workers.
 */
export function afterCommit(db: Kysely<Database>, hook: () => void): void {
  if (!db.isTransaction) {
    hook();
    return;
  }
  const hooks = endHooks.get(db);
  if (hooks) hooks.push(hook);
  else endHooks.set(db, [hook]);
}

/** Runs the hooks of `trx`, which has committed or rolled back. */
export function transactionEnded(trx: object): void {
  const hooks = endHooks.get(trx);
  endHooks.delete(trx);
  for (const hook of hooks ?? []) hook();
}
