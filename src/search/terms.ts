/**
 * Query terms: what a question is searched for. Words of letters and digits, lower-cased, without
 * diacritics, without English stop words and question words ("how do I …"), at most
 * {@link MAX_TERMS}. The same normalization decides which terms a passage contains
 * ({@link termMatcher}), with a light suffix-stripping stem so that "installing" matches "install".
 */

export const MAX_TERMS = 16;

const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could couldn did didn do does doesn doing don down during each few for from ' +
    'further had has have having he her here hers herself him himself his how i if in into is isn it its itself ' +
    'just let me more most my myself no nor not of off on once only or other ought our ours ourselves out over ' +
    'own same she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves s t ll ve re d m also get got use using used need want tell please ' +
    'explain show give know way ways thing things something anything'
  ).split(' '),
);

/** Lower case, diacritics removed (as SQLite's `remove_diacritics` and close to PostgreSQL's parser). */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Every word of `text` (letters and digits), normalized, in order. */
export function words(text: string): string[] {
  return normalize(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The distinct search terms of a question, in order of appearance. */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    if (STOP_WORDS.has(word) || (word.length < 2 && !/\d/.test(word)) || terms.includes(word)) continue;
    terms.push(word);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** A rough English stem: enough to match inflections of the same word, never used for display. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const [suffix, replacement] of [
    ['ational', 'ate'],
    ['ization', 'ize'],
    ['ations', 'ate'],
    ['ation', 'ate'],
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['ly', ''],
    ['s', ''],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length) + replacement;
  }
  return word;
}

/** Which of `terms` occur in `text` (by stem, or as a prefix of a word for stems of 4+ letters). */
export function termMatcher(text: string): (term: string) => boolean {
  const stems = new Set(words(text).map(stem));
  const list = [...stems];
  const cache = new Map<string, boolean>();
  return (term) => {
    let hit = cache.get(term);
    if (hit === undefined) {
      const s = stem(term);
      hit = stems.has(s) || (s.length >= 4 && list.some((w) => w.startsWith(s)));
      cache.set(term, hit);
    }
    return hit;
  };
}
