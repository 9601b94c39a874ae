import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('newId', () => {
  it('gives ids of the asked length over the URL-safe alphabet, all distinct', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(newId(8)).toHaveLength(8);
    expect(newId(64)).toHaveLength(64);
  });

  it('uses every character about equally often (no modulo bias across pool refills)', () => {
    const counts = new Map<string, number>();
    const total = 62 * 4_000;
    for (let made = 0; made < total; made += 62) {
      for (const c of newId(62)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(ALPHABET.length);
    // Chi-square with 61 degrees of freedom: above 110 has a chance well under 1 in 10,000. A
    // biased mapping (byte % 62 over all 256 values) gives the first 8 characters 5/4 the share of
    // the others: a statistic in the thousands here.
    const expected = total / ALPHABET.length;
    let chi = 0;
    for (const c of ALPHABET) chi += ((counts.get(c) ?? 0) - expected) ** 2 / expected;
    expect(chi).toBeLessThan(110);
  });
});
