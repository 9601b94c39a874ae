import { describe, expect, it } from 'vitest';
import { WriteCounter } from '../../src/db/writes.js';
import { ResponseCache } from '../../src/http/response-cache.js';
import { RecencyMap } from '../../src/lib/recency-map.js';

function filled(...keys: string[]): RecencyMap<string, number> {
  const map = new RecencyMap<string, number>();
  for (const [i, key] of keys.entries()) map.set(key, i);
  return map;
}

describe('RecencyMap', () => {
  it('gets, sets, deletes and clears like a Map', () => {
    const map = filled('a', 'b');
    expect(map.size).toBe(2);
    expect(map.get('a')).toBe(0);
    expect(map.get('missing')).toBeUndefined();
    map.set('a', 5);
    expect(map.get('a')).toBe(5);
    expect(map.size).toBe(2);
    expect(map.delete('a')).toBe(5);
    expect(map.delete('a')).toBeUndefined();
    expect(map.size).toBe(1);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.evict()).toBeUndefined();
  });

  it('evicts the oldest entry not read since it was set', () => {
    const map = filled('a', 'b', 'c');
    expect(map.evict()).toEqual(['a', 0]);
    expect(map.evict()).toEqual(['b', 1]);
    expect(map.size).toBe(1);
  });

  it('keeps a read entry once (its second chance) and then evicts it after the unread ones', () => {
    const map = filled('a', 'b', 'c');
    map.get('a');
    map.get('b');
    expect(map.evict()).toEqual(['c', 2]);
    // a and b were passed over, unread since: the older of them goes next.
    expect(map.evict()).toEqual(['a', 0]);
    map.get('b');
    map.set('d', 3);
    expect(map.evict()).toEqual(['d', 3]); // b was read again; d never was
    expect(map.evict()).toEqual(['b', 1]);
  });

  it('evicts even when every entry was read, and a value set again starts unread at the back', () => {
    const map = filled('a', 'b');
    map.get('a');
    map.get('b');
    expect(map.evict()).toEqual(['a', 0]);
    const again = filled('a', 'b');
    again.get('a');
    again.set('a', 7); // set again: newest and unread
    again.get('b');
    expect(again.evict()).toEqual(['a', 7]);
  });
});

describe('ResponseCache budget', () => {
  const answer = (size: number) => ({
    body: Buffer.alloc(size),
    etag: '"e"',
    contentType: 'application/json',
    route: '/r',
  });

  it('stays within its bytes, evicting the answers not read since they were kept', () => {
    // Room for five: each takes its body, its key (2 bytes a character) and 256 bytes of allowance
    // (and one answer may take at most a quarter of the budget).
    const cache = new ResponseCache(5 * (1_000 + 2 + 256));
    const changes = new WriteCounter();
    const now = Date.now();
    for (const key of ['a', 'b', 'c', 'd', 'e']) cache.set(key, answer(1_000), 0, null, changes);
    expect(cache.size).toBe(5);
    expect(cache.get('a', changes, now)).toBeDefined();
    cache.set('f', answer(1_000), 0, null, changes);
    expect(cache.size).toBe(5);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.get('b', changes, now)).toBeUndefined(); // the oldest unread one went
    for (const key of ['a', 'c', 'd', 'e', 'f']) expect(cache.get(key, changes, now)).toBeDefined();
    // A global change empties it; an expired answer is not served.
    changes.commit(null);
    expect(cache.get('a', changes, now)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('e', answer(10), changes.committed, null, changes);
    expect(cache.get('e', changes, now + 60_000)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('serves an answer while no change of its scopes (nor a global one) committed since it was computed', () => {
    const cache = new ResponseCache(1_000_000);
    const changes = new WriteCounter();
    const now = Date.now();
    cache.set('b', answer(10), changes.committed, ['org:b', 'user:u'], changes);
    cache.set('any', answer(10), changes.committed, null, changes);
    changes.commit(['org:a', 'user:v']);
    expect(cache.get('b', changes, now)).toBeDefined();
    expect(cache.get('any', changes, now)).toBeUndefined(); // depends on every write
    changes.commit(['user:u']);
    expect(cache.get('b', changes, now)).toBeUndefined();
    // Computed while a change of its scope committed: not kept.
    const since = changes.committed;
    changes.commit(['org:b']);
    cache.set('b', answer(10), since, ['org:b'], changes);
    expect(cache.get('b', changes, now)).toBeUndefined();
    cache.set('b', answer(10), changes.committed, ['org:b'], changes);
    expect(cache.get('b', changes, now)).toBeDefined();
    changes.commit(null);
    expect(cache.get('b', changes, now)).toBeUndefined();
  });
});
