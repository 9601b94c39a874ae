/**
 * Short-lived in-process caches of what every request reads (the caller's token, their
 * organization membership), with invalidation by tag.
 *
 * Correctness rules:
 * - Whatever changes a cached row calls {@link invalidate} with its tag (`token:<id>`,
 *   `member:<org>:<user>`): the entries go at once, so this process refuses a revoked token or a
 *   removed member on the very next request.
 * - A value read while its row was being changed must not be cached: the write may still be in an
 *   uncommitted transaction when it invalidates, so for {@link QUARANTINE_MS} after an invalidation
 *   nothing tagged with it is stored (readers go to the database). Reads inside a transaction are
 *   never cached (callers check `db.isTransaction`).
 * - Other processes' changes drop entries as soon as this process learns of them (PostgreSQL's
 *   notifications, SQLite's data version: src/http/change-feed.ts). A change whose scopes are known
 *   (the organizations and members it changed, src/db/write-scope.ts) drops the entries tagged with
 *   one of those scopes and every entry tagged with no scope ({@link invalidateScopes}); any other
 *   change empties every cache ({@link invalidateEverything}). So an entry tagged with scopes must
 *   be tagged with every scope whose changes could change it (data changed only by global writes,
 *   such as users and tokens, needs none: a user's scope is a fine tag). The workers of one
 *   `WORKERS=N` cluster also relay their tags to each other through the primary
 *   ({@link relayInvalidations}). Entries expire anyway (`ttlMs`, 10 s), which bounds staleness
 *   when change notifications cannot be had.
 */
import cluster from 'node:cluster';
import { isScope } from '../db/write-scope.js';

/** How long after an invalidation values with that tag are not cached. */
const QUARANTINE_MS = 2_000;
let quarantineMs = QUARANTINE_MS;

/**
 * For tests of invalidation: with 0, a value read right after an invalidation is cached, so a write
 * that forgets to invalidate shows on the next read instead of being hidden by the quarantine of
 * the test's own setup writes. Every other caller keeps {@link QUARANTINE_MS}.
 */
export function setInvalidationQuarantine(ms: number): void {
  quarantineMs = ms;
}
const MESSAGE = 'bindery:invalidate';

/** When each tag was last invalidated (epoch ms); pruned once older than the quarantine. */
const invalidatedAt = new Map<string, number>();
/** When every cache was last emptied by {@link invalidateEverything} (epoch ms). */
let everythingInvalidatedAt = 0;
/** When another process last changed each scope (epoch ms), and anything at all ({@link invalidateScopes}). */
const scopeInvalidatedAt = new Map<string, number>();
let unscopedInvalidatedAt = 0;
const caches = new Set<TtlCache<unknown>>();

interface Entry<V> {
  value: V;
  expires: number;
  tags: readonly string[];
  /** Whether a tag is a scope: then only changes of its scopes (or global ones) drop it. */
  scoped: boolean;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
  ) {
    caches.add(this as TtlCache<unknown>);
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Stores `value` read from the database at `readAt` (epoch ms, taken before the read), unless a
   * tag was invalidated since the read began or within the quarantine before it.
   */
  set(key: string, value: V, tags: readonly string[], readAt: number): void {
    if (readAt <= everythingInvalidatedAt) return;
    let scoped = false;
    for (const tag of tags) {
      const at = invalidatedAt.get(tag);
      if (at !== undefined && at >= readAt - quarantineMs) return;
      if (!isScope(tag)) continue;
      scoped = true;
      // Another process changed the scope since the read began: the value may predate it.
      if (readAt <= (scopeInvalidatedAt.get(tag) ?? 0)) return;
    }
    if (!scoped && readAt <= unscopedInvalidatedAt) return;
    if (this.entries.size >= this.maxEntries) {
      // Oldest first (insertion order); expired entries are also dropped on read.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs, tags, scoped });
  }

  /** Drops the entries carrying `tag`. */
  drop(tag: string): void {
    for (const [key, entry] of this.entries) if (entry.tags.includes(tag)) this.entries.delete(key);
  }

  /** Drops the entries carrying one of `scopes`, and those carrying no scope. */
  dropScopes(scopes: ReadonlySet<string>): void {
    for (const [key, entry] of this.entries) {
      if (!entry.scoped || entry.tags.some((tag) => scopes.has(tag))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Reads `key` through `cache` outside transactions (a transaction may read its own uncommitted
 * change, which must not be cached for everyone); `load` runs on a miss.
 */
export async function readThrough<V>(
  db: { readonly isTransaction: boolean },
  cache: TtlCache<V>,
  key: string,
  tags: string[],
  load: () => Promise<V>,
): Promise<V> {
  if (db.isTransaction) return load();
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const readAt = Date.now();
  const value = await load();
  cache.set(key, value, tags, readAt);
  return value;
}

function invalidateHere(tags: readonly string[]): void {
  const now = Date.now();
  if (invalidatedAt.size > 10_000) {
    for (const [tag, at] of invalidatedAt) if (at < now - quarantineMs) invalidatedAt.delete(tag);
  }
  for (const tag of tags) {
    invalidatedAt.set(tag, now);
    for (const cache of caches) cache.drop(tag);
  }
}

/**
 * Empties every cache of this process: another process has committed a change whose tags this one
 * cannot know (src/http/change-feed.ts). The change is already visible, so no quarantine is needed;
 * only values whose read began before now are refused, since they may predate it.
 */
export function invalidateEverything(): void {
  everythingInvalidatedAt = Date.now();
  for (const cache of caches) cache.clear();
}

/**
 * Another process committed a change of `scopes` (src/http/change-feed.ts): drops the entries that
 * may show it (tagged with one of them, or with no scope). Already visible, so no quarantine; only
 * values whose read began before now are refused.
 */
export function invalidateScopes(scopes: readonly string[]): void {
  const now = Date.now();
  if (scopeInvalidatedAt.size > 10_000) {
    // Forgetting when a scope changed would accept a value read before it: refuse those reads too.
    everythingInvalidatedAt = Math.max(everythingInvalidatedAt, ...scopeInvalidatedAt.values());
    scopeInvalidatedAt.clear();
  }
  unscopedInvalidatedAt = now;
  for (const scope of scopes) scopeInvalidatedAt.set(scope, now);
  const set = new Set(scopes);
  for (const cache of caches) cache.dropScopes(set);
}

/** Drops every cached value carrying one of `tags`, here and in the other workers of this cluster. */
export function invalidate(...tags: string[]): void {
  invalidateHere(tags);
  if (cluster.isWorker && process.send) process.send({ type: MESSAGE, tags });
}

/** In a worker: applies the invalidations other workers send through the primary. */
export function listenForInvalidations(): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: { type?: string; tags?: string[] }) => {
    if (message?.type === MESSAGE && Array.isArray(message.tags)) invalidateHere(message.tags);
  });
}

/** In the primary: passes each worker's invalidations on to the other workers. */
export function relayInvalidations(): void {
  cluster.on('message', (from, message: { type?: string }) => {
    if (message?.type !== MESSAGE) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(message);
    }
  });
}
