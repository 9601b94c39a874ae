/**
 * The two caches of the published sites.
 *
 * - {@link Memo}: what a site is (its model and version key, which site an address names) is read
 *   from the database at most once per `ttlMs` per key, and again at once after any change made
 *   through this process (`invalidate()`, called after every successful API write). Another process
 *   on the same database sees a change within `ttlMs`: the model it then reads has a new version key.
 * - {@link RenderCache}: rendered responses keyed by the site's version key and the address, so a
 *   merge, a customization, a structure change or a publish (each changes the key) is never served
 *   stale, and unchanged sites are never rendered twice. Bounded in entries and bytes (the least
 *   recently read go first).
 */
import { createHash } from 'node:crypto';
import { RecencyMap } from '../core/recency-map.js';

interface MemoEntry<T> {
  at: number;
  generation: number;
  value: Promise<T>;
  /** The value once loaded (for {@link Memo.peek}). */
  settled?: { value: T };
}

export class Memo<T> {
  private readonly entries = new Map<string, MemoEntry<T>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Forgets everything (a change was made through this process). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The loaded, current value of `key` without waiting; undefined when not loaded (or stale). */
  peek(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit?.settled || hit.generation !== this.generation || Date.now() - hit.at >= this.ttlMs) return undefined;
    return hit.settled.value;
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    const entry: MemoEntry<T> = { at: now, generation: this.generation, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    value.then(
      (loaded) => {
        entry.settled = { value: loaded };
      },
      () => {
        // A failed load is not remembered.
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
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
  /** The least recently read go first (src/core/recency-map.ts). */
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
