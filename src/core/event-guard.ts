/**
 * The check behind "every change records what happened": each transaction `inTransaction` opens
 * (src/core/service.ts) carries an {@link EventGuard}, a Kysely plugin that sees every statement
 * the transaction's builder queries send and the rows each one changed. `recordEvent` tells the
 * guard of its transaction that an event was written. When the work is done, before the commit,
 * `inTransaction` asks the guard: a transaction that changed a row (other than the job queue's
 * bookkeeping) and recorded no event fails, rolled back, unless the service function that opened
 * it is on the allow-list (src/core/unevented.ts).
 *
 * Why at run time rather than by reading the source: the guard judges what a transaction did, not
 * what its code looks like, so a helper whose name promises an event, an event recorded on another
 * connection or in a branch that did not run, cannot satisfy it; only an event row written in the
 * same transaction (or the function's own entry on the allow-list, which a reviewer sees) does.
 *
 * Precompiled queries (src/db/prepared.ts) bypass plugins: the event insert is one (so `recordEvent`
 * reports itself), and the others are reads or the token's `last_used_at`, outside transactions.
 */
import {
  AliasNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from 'kysely';
import { WRITES_WITHOUT_EVENT, type WriteWithoutEvent } from './unevented.js';

/** Tables whose rows are bookkeeping, not changes: the job queue's (recording an event enqueues too). */
const BOOKKEEPING_TABLES = new Set(['jobs']);

/** The name of the table `node` stands for (`?` when it is not a plain table). */
function tableName(node: OperationNode | undefined): string {
  if (node && AliasNode.is(node)) return tableName(node.node);
  return node && TableNode.is(node) ? node.table.identifier.name : '?';
}

/** The table a write statement changes, or null when the statement does not change data. */
function writtenTable(node: RootOperationNode): string | null {
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableName(node.into);
    case 'UpdateQueryNode':
      return tableName(node.table);
    case 'DeleteQueryNode':
      return tableName(node.from.froms[0]);
    case 'MergeQueryNode':
      return tableName(node.into);
    case 'RawNode':
      // Raw statements are rare in the service layer; one that changes data counts as a change.
      return /^\s*(insert|update|delete|merge|with)\b/i.test(node.sqlFragments.join('?')) ? '?' : null;
    default:
      return null;
  }
}

export class EventGuard implements KyselyPlugin {
  /** Tables changed so far (rows affected), bookkeeping excluded. */
  readonly changed = new Set<string>();
  private events = 0;
  private readonly pending = new WeakMap<object, string>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(node);
    if (table !== null && !BOOKKEEPING_TABLES.has(table)) this.pending.set(queryId, table);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = this.pending.get(queryId);
    if (table !== undefined) {
      this.pending.delete(queryId);
      // Like the write counter (src/db/writes.ts): a statement that changed no row changed nothing.
      if ((result.numAffectedRows ?? 0n) > 0n || result.rows.length > 0) this.changed.add(table);
    }
    return result;
  }

  /** Called by `recordEvent` once the event row is written in this guard's transaction. */
  eventRecorded(): void {
    this.events++;
  }

  /**
   * Throws when the transaction changed data without recording an event and `withoutEvent` (the
   * service function that opened it, when it is on the allow-list) does not excuse it.
   */
  check(withoutEvent?: WriteWithoutEvent): void {
    if (this.events > 0 || this.changed.size === 0) return;
    if (withoutEvent && Object.hasOwn(WRITES_WITHOUT_EVENT, withoutEvent)) return;
    throw new UnrecordedChangeError([...this.changed]);
  }
}

/** A transaction changed data and recorded no event (a bug of the service function: it is rolled back). */
export class UnrecordedChangeError extends Error {
  constructor(readonly tables: string[]) {
    super(
      `a transaction changed ${tables.join(', ')} without recording an event: record one (src/events/record.ts) ` +
        'or put the service function on the list of writes without events (src/core/unevented.ts)',
    );
    this.name = 'UnrecordedChangeError';
  }
}

const guards = new WeakMap<object, EventGuard>();

/** A transaction with a new guard, and the guard. */
export function guarded<T extends { withPlugin(plugin: KyselyPlugin): T }>(trx: T): { trx: T; guard: EventGuard } {
  const guard = new EventGuard();
  const wrapped = trx.withPlugin(guard);
  guards.set(wrapped, guard);
  return { trx: wrapped, guard };
}

/** The guard of the transaction `db` (none outside `inTransaction`: a job's own transaction, a test's write). */
export function guardOf(db: object): EventGuard | undefined {
  return guards.get(db);
}
