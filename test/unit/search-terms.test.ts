/**
 * The CJK pairs index (src/search/terms.ts `cjkPairsOf`, table `search_cjk_pairs`) stands in for a
 * substring scan: a passage holds a pair term of a query exactly when its text, normalized as terms
 * are, contains it. Checked over generated texts mixing scripts, marks and surrogate pairs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cjkPairsOf, isCjkPair, letterPairs, normalize, searchTerms } from '../../src/search/terms.js';

const LETTERS = [
  '安',
  '装',
  '服',
  '务',
  '器',
  '設',
  '定',
  'サ',
  'ー',
  'バ',
  'ば',
  '서',
  '버',
  '𠀋',
  'a',
  'É',
  '1',
  ' ',
  '。',
  '-',
];
const text = fc.array(fc.constantFrom(...LETTERS), { maxLength: 24 }).map((letters) => letters.join(''));

describe('CJK letter pairs', () => {
  it('splits a run into its overlapping pairs by code point', () => {
    expect(letterPairs('安装服务器')).toEqual(['安装', '装服', '服务', '务器']);
    expect(letterPairs('𠀋安')).toEqual(['𠀋安']);
    expect(letterPairs('安')).toEqual([]);
    expect(searchTerms('安')).toEqual(['安']);
    expect(searchTerms('サーバー')).toEqual(['サー', 'ーハ', 'ハー']);
  });

  it('holds a pair term of a query exactly when the normalized text contains it', () => {
    fc.assert(
      fc.property(text, text, (passage, query) => {
        const pairs = new Set(cjkPairsOf(passage));
        for (const term of searchTerms(query).filter(isCjkPair)) {
          expect(pairs.has(term), `${term} in ${passage}`).toBe(normalize(passage).includes(term));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('takes the pairs of each text apart (title, heading and body are not one run)', () => {
    expect(cjkPairsOf('安', '装')).toEqual([]);
    expect(cjkPairsOf('设置', 'api设置')).toEqual(['设置', 'ap', 'pi', 'i设']);
  });
});
