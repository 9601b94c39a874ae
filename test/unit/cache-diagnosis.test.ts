/** The response cache's diagnosis (src/http/cache-diagnosis.ts): each miss is counted by its cause. */
import { describe, expect, it } from 'vitest';
import { WriteCounter } from '../../src/db/writes.js';
import { ResponseCache } from '../../src/http/response-cache.js';

const answer = () => ({ body: Buffer.from('{}'), etag: '"e"', contentType: 'application/json', route: '/r' });

describe('the response cache’s diagnosis', () => {
  it('counts hits, first lookups, lookups in flight, drops by the scope that moved, and expiries', () => {
    const cache = new ResponseCache(1_000_000, true);
    const changes = new WriteCounter();
    const now = Date.now();
    const lookup = (key: string, at = now) => cache.get(key, changes, at, '/r');
    expect(lookup('a')).toBeUndefined(); // first lookup
    expect(lookup('a')).toBeUndefined(); // its answer is still being computed
    cache.set('a', answer(), changes.committed, ['orgbase:o', 'cr:c'], changes);
    expect(lookup('a')).toBeDefined();
    changes.commit(['org:o', 'cr:c']);
    expect(lookup('a')).toBeUndefined(); // dropped by its change request
    cache.set('a', answer(), changes.committed, ['orgbase:o', 'cr:c'], changes);
    expect(lookup('a', now + 60_000)).toBeUndefined(); // past its age
    const since = changes.committed;
    changes.commit(['space:s']);
    cache.set('b', answer(), since, ['space:s'], changes); // refused: changed while computed
    expect(lookup('b')).toBeUndefined();
    expect(Object.fromEntries(cache.diagnosis?.counts.get('/r') ?? [])).toEqual({
      cold: 1,
      'in flight': 1,
      hit: 1,
      'dropped cr': 1,
      expired: 1,
      'refused space': 1,
    });
  });

  it('counts nothing when off', () => {
    expect(new ResponseCache(1_000).diagnosis).toBeNull();
  });
});
