/**
 * A Map for bounded caches whose reads must be cheap: it evicts the least recently used entries
 * approximately, in CLOCK ("second chance") order, instead of exactly.
 *
 * Why not the usual exact LRU on a Map (delete and set again on every read, so the Map's order is
 * the recency order)? Each delete leaves a hole in V8's hash table, and every few reads the table
 * is rebuilt. Once the cache has lived long enough to sit in the old generation, V8 allocates each
 * rebuilt table there too: a cached read left ~150 bytes of old-generation garbage, so the old
 * generation grew ~4 MB between two young collections under load, young collections took 12–15 ms
 * instead of ~1 ms, and a full collection ran every ~5 s (`--trace-gc`, GET organization from the
 * response cache). Here a read only sets a flag on its entry; the Map's order changes on writes
 * and evictions only.
 *
 * Eviction takes the oldest entry not read since it was inserted or last passed over; a read entry
 * is passed over once (moved to the back, its flag cleared).
 */
interface Slot<V> {
  value: V;
  read: boolean;
}

export class RecencyMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();

  get size(): number {
    return this.slots.size;
  }

  /** The value of `key`, which counts as read (it is kept longer). */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    slot.read = true;
    return slot.value;
  }

  /** Sets `key` as the newest entry (a value set again moves to the back, unread). */
  set(key: K, value: V): void {
    this.slots.delete(key);
    this.slots.set(key, { value, read: false });
  }

  /** Removes `key`; its value, or undefined when there was none. */
  delete(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.slots.delete(key);
    return slot.value;
  }

  clear(): void {
    this.slots.clear();
  }

  keys(): IterableIterator<K> {
    return this.slots.keys();
  }

  /** Removes the entry to evict next and returns it; undefined when empty. */
  evict(): [K, V] | undefined {
    for (const [key, slot] of this.slots) {
      this.slots.delete(key);
      if (slot.read) {
        // Its second chance: to the back, unread. The iteration reaches it again after the others.
        slot.read = false;
        this.slots.set(key, slot);
        continue;
      }
      return [key, slot.value];
    }
    return undefined;
  }
}
