/**
 * The two caches of the published sites.
 *
 * - {@link Memo}: what a site is (its model and version key, which site an address names, which
 *   sites a host serves) is kept for as long as the data has not changed, the way the response cache
 *   is (src/http/response-cache.ts): each value carries the change feed's generation it was read at
 *   (src/http/change-feed.ts), and a value of an older generation is read again. A change made
 *   through this process is counted as it commits; one made by another process as soon as this one
 *   learns of it (SQLite: the next request; PostgreSQL: its notification, within milliseconds). So
 *   an unpublished site, a deactivated share link or a removed proxy is refused at once, everywhere.
 *   While the generation is unknown (PostgreSQL without its listening connection), nothing is kept.
 * - {@link RenderCache}: rendered responses keyed by the site's version key and the address, so a
 *   merge, a customization, a structure change or a publish (each changes the key) is never served
 *   stale, and unchanged sites are never rendered twice. Bounded in entries and bytes (the least
 *   recently read go first).
 */
import { createHash } from 'node:crypto';
import { RecencyMap } from '../lib/recency-map.js';

/** The data generation now (src/http/change-feed.ts), or undefined when changes cannot be known. */
export type Generation = () => number | undefined;

interface MemoEntry<T> {
  value: Promise<T>;
  /** The value once loaded (for {@link Memo.peek}). */
  settled?: { value: T };
}

export class Memo<T> {
  private readonly entries = new Map<string, MemoEntry<T>>();
  /** The generation the entries were read at; a new one empties the memo. */
  private generation = -1;

  constructor(
    private readonly current: Generation,
    private readonly maxEntries = 10_000,
  ) {}

  /** The entries, emptied first when the data has changed since they were read; null: keep nothing. */
  private valid(): Map<string, MemoEntry<T>> | null {
    const now = this.current();
    if (now === undefined) return null;
    if (now !== this.generation) {
      this.entries.clear();
      this.generation = now;
    }
    return this.entries;
  }

  /** The loaded, current value of `key` without waiting; undefined when not loaded (or stale). */
  peek(key: string): T | undefined {
    return this.valid()?.get(key)?.settled?.value;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const entries = this.valid();
    if (entries === null) return load();
    const hit = entries.get(key);
    if (hit) return hit.value;
    // Read at the generation taken above: a change committed while it loads moves the generation,
    // and the next get reads again.
    const value = load();
    const entry: MemoEntry<T> = { value };
    entries.set(key, entry);
    value.then(
      (loaded) => {
        entry.settled = { value: loaded };
      },
      () => {
        // A failed load is not remembered.
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
    return value;
  }
}

export interface Rendered {
  status: number;
  type: string;
  body: string;
  etag: string;
}

/** A response body with its strong ETag (hash of the body). */
export function rendered(status: number, type: string, body: string): Rendered {
  return { status, type, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

export class RenderCache {
  /** The least recently read go first (src/lib/recency-map.ts). */
  private readonly entries = new RecencyMap<string, Rendered>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 5_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string): Rendered | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Rendered): void {
    const old = this.entries.delete(key);
    if (old) this.bytes -= old.body.length;
    this.entries.set(key, value);
    this.bytes += value.body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const evicted = this.entries.evict();
      if (evicted === undefined) break;
      this.bytes -= evicted[1].body.length;
    }
  }

  /** Renders on a miss; concurrent misses of one key render once. */
  async through(key: string, render: () => Promise<Rendered>): Promise<Rendered> {
    const hit = this.get(key);
    if (hit) return hit;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = render().finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const value = await pending;
    this.set(key, value);
    return value;
  }

  private readonly pending = new Map<string, Promise<Rendered>>();
}
