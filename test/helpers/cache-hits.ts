/**
 * Reads through a harness's response cache, saying whether each answer came from memory: the
 * helpers of the tests of what a write drops from the cache (test/api/scoped-cache.test.ts,
 * test/api/part-scopes.test.ts).
 */
import { expect } from 'vitest';
import type { Client, Harness } from './app.js';

export function cacheReads(harness: () => Harness) {
  /** GETs `url` and says whether the answer came from memory. */
  async function get(client: Client, url: string) {
    const cache = harness().app.responseCache;
    if (!cache) throw new Error('the response cache is off');
    const before = cache.hits;
    const res = await client.get(url);
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    return { res, hit: cache.hits === before + 1 };
  }

  /** Reads each URL until it is answered from memory. */
  async function keep(client: Client, urls: string[]) {
    for (const url of urls) {
      await get(client, url);
      expect((await get(client, url)).hit, url).toBe(true);
    }
  }

  /** Whether each URL is answered from memory now. */
  async function hits(client: Client, urls: string[]) {
    const out: Record<string, boolean> = {};
    for (const url of urls) out[url] = (await get(client, url)).hit;
    return out;
  }

  return { get, keep, hits };
}
