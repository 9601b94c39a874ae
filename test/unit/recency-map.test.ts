import { describe, expect, it } from 'vitest';
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
    const now = Date.now();
    for (const key of ['a', 'b', 'c', 'd', 'e']) cache.set(key, answer(1_000), 1, 1);
    expect(cache.size).toBe(5);
    expect(cache.get('a', 1, now)).toBeDefined();
    cache.set('f', answer(1_000), 1, 1);
    expect(cache.size).toBe(5);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.get('b', 1, now)).toBeUndefined(); // the oldest unread one went
    for (const key of ['a', 'c', 'd', 'e', 'f']) expect(cache.get(key, 1, now)).toBeDefined();
    // A new generation empties it; an expired answer is not served.
    expect(cache.get('a', 2, now)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('e', answer(10), 2, 2);
    expect(cache.get('e', 2, now + 60_000)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
