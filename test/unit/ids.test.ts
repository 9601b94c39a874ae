import { describe, expect, it } from 'vitest';
import { looksLikeId, newId, uuidV7, uuidV7Bound } from '../../src/lib/ids.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('looksLikeId', () => {
  it('knows the ids newId makes, in any case, and nothing shorter, longer or of other characters', () => {
    for (let i = 0; i < 100; i++) {
      const id = newId();
      expect(looksLikeId(id)).toBe(true);
      expect(looksLikeId(id.toLowerCase())).toBe(true);
    }
    for (const text of ['acme', 'a'.repeat(19), 'a'.repeat(21), `${'a'.repeat(19)}-`, `${'a'.repeat(19)}é`, '']) {
      expect(looksLikeId(text), text).toBe(false);
    }
  });
});

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

describe('uuidV7', () => {
  it('is a version 7 UUID whose first 48 bits are the time, sorting by creation across milliseconds', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    const later = uuidV7(at + 1);
    expect(later > id).toBe(true);
    const many = new Set(Array.from({ length: 2_000 }, () => uuidV7(at)));
    expect(many.size).toBe(2_000);
  });
});

describe('uuidV7Bound', () => {
  it('sorts above every id made before the millisecond and below every id made at or after it', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    const bound = uuidV7Bound(at);
    expect(bound).toBe(uuidV7(at).slice(0, 13));
    for (let i = 0; i < 200; i++) {
      expect(uuidV7(at - 1) < bound).toBe(true);
      expect(uuidV7(at - 86_400_000) < bound).toBe(true);
      expect(uuidV7(at) > bound).toBe(true);
      expect(uuidV7(at + 1) > bound).toBe(true);
    }
  });
});
