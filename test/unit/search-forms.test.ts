/**
 * Re-ranking matches terms against the forms of a passage stored at index time (src/search/terms.ts
 * `textForms`, `formsMatcher`) instead of folding, splitting and stemming its text on every search.
 * Checked against the matching it replaces (below, as it was), over generated texts mixing scripts,
 * marks, inflections and words inside words; and the shortcuts of folding and of snippets against
 * the general path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, markedSnippet, matchRanges, snippet } from '../../src/search/pages.js';
import {
  formsMatcher,
  matchesInside,
  normalize,
  queryPhrase,
  searchTerms,
  stem,
  textForms,
  words,
} from '../../src/search/terms.js';

/** The matcher before forms were stored: a set of the text's stems, its folded text, its words joined. */
function reference(text: string) {
  const flat = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase();
  const textWords = flat.match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = new Set(textWords.map(stem));
  const joined = ` ${textWords.join(' ')} `;
  return {
    has: (term: string) => {
      const s = stem(term);
      return (
        stems.has(s) ||
        (s.length >= 4 && [...stems].some((w) => w.startsWith(s))) ||
        (matchesInside(term) && flat.includes(term))
      );
    },
    holds: (phrase: { words: string; cjk: boolean }) =>
      joined.includes(phrase.cjk ? phrase.words : ` ${phrase.words} `),
  };
}

const PIECES = [
  'install',
  'installing',
  'installation',
  'relational',
  'relate',
  'queries',
  'query',
  'Café',
  'cafe',
  'É',
  'ß',
  'İ',
  'ﬁle',
  'file',
  'api',
  '2',
  '42',
  '安装',
  '服务器',
  'サーバー',
  '서버',
  '𠀋',
  ' ',
  ' ',
  '\n',
  '-',
  '.',
  "'",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join(''));

describe('stored forms of a passage', () => {
  it('match the same terms and phrases as the text they were taken from', () => {
    fc.assert(
      fc.property(text, text, (passage, query) => {
        const stored = formsMatcher(textForms(passage));
        const before = reference(passage);
        for (const term of [...searchTerms(query), ...words(query)]) {
          expect(stored.has(term), `${term} in ${passage}`).toBe(before.has(term));
        }
        const phrase = queryPhrase(query);
        if (phrase) expect(stored.holds(phrase), `"${phrase.words}" in ${passage}`).toBe(before.holds(phrase));
      }),
      { numRuns: 1000 },
    );
  });

  it('keep words in order and stems once', () => {
    expect(textForms('Installing the CLI\nInstall it, installed.')).toEqual({
      words: 'installing the cli install it installed',
      stems: 'install the cli it',
    });
  });
});

describe('folding and snippets', () => {
  it('fold ASCII by lower-casing as the Unicode path does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (s) => {
        expect(normalize(s)).toBe(
          s
            .normalize('NFKD')
            .replace(/\p{M}+/gu, '')
            .normalize('NFC')
            .toLowerCase(),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('collapse white space as one replacement of every run does', () => {
    const spaced = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', ' ', '\n', '\t', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', 'é'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(spaced, (s) => {
        expect(collapseWhitespace(s)).toBe(s.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('cut a long text around the first match, as the match ranges place it', () => {
    fc.assert(
      fc.property(text, text, text, (before, middle, query) => {
        const long = `${before} ${'filler words '.repeat(20)} ${middle}`;
        const flat = long.replace(/\s+/g, ' ').trim();
        const at = matchRanges(flat, query)[0]?.[0];
        const start = at === undefined ? 0 : Math.max(0, at - 60);
        expect(snippet(long, query).replace(/^…|…$/g, '')).toBe(flat.slice(start, start + 180).trim());
      }),
      { numRuns: 300 },
    );
  });
});

describe('marked excerpts of long passages', () => {
  it('marks the matches of an excerpt cut with "…" at either end', () => {
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6);
    const body = `${filler}Invoices are sent by the billing service each month. ${filler}`;
    const marked = markedSnippet(body, 'billing');
    expect(marked.startsWith('…')).toBe(true);
    expect(marked.endsWith('…')).toBe(true);
    expect(marked).toContain('the <mark>billing</mark> service');
    // A short passage, not cut, is marked as before.
    expect(markedSnippet('Run the billing job.', 'billing')).toBe('Run the <mark>billing</mark> job.');
  });
});
