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
  // ASCII has nothing to decompose or strip: lower-casing alone gives the same string, without the
  // two passes of Unicode normalization over the whole text (search folds every passage it shows).
  // A text is ASCII exactly when its UTF-8 length is its length (any other UTF-16 unit takes 2 or 3
  // bytes); Node counts it without copying, several times faster than a regular expression.
  if (Buffer.byteLength(text, 'utf8') === text.length) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC') // Hangul syllables, split into letters by NFKD, are put back together
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
  return wordMatcher(words(text));
}

/** {@link termMatcher} over the words of a text already split. */
function wordMatcher(textWords: string[]): (term: string) => boolean {
  const stems = new Set(textWords.map(stem));
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

/** Letters of scripts written without spaces between words (Chinese, Japanese) and Korean. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether `term` holds letters of a script written without spaces (see {@link searchTerms}). */
export function isCjk(term: string): boolean {
  return CJK.test(term);
}

/**
 * The terms of a search-box query (the published sites' and the API's search): words as
 * {@link queryTerms} keeps them, except that a run of Chinese, Japanese or Korean letters, which
 * has no spaces to split it into words, becomes its overlapping pairs of letters ("安装服务器" →
 * 安装, 装服, 服务, 务器), the usual unit of CJK search: a passage holding most pairs holds the run
 * or most of it.
 */
export function searchTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of words(text)) {
    if (isCjk(word)) {
      if ([...word].length === 1) terms.add(word);
      for (const pair of letterPairs(word)) terms.add(pair);
    } else if (!STOP_WORDS.has(word) && (word.length >= 2 || /\d/.test(word))) {
      terms.add(word);
    }
    if (terms.size >= MAX_TERMS) break;
  }
  return [...terms].slice(0, MAX_TERMS);
}

/** The overlapping pairs of letters of a word ("安装服务器" → 安装, 装服, 服务, 务器), by code point. */
export function letterPairs(word: string): string[] {
  const letters = [...word];
  const pairs: string[] = [];
  for (let i = 0; i + 2 <= letters.length; i++) pairs.push(`${letters[i]}${letters[i + 1]}`);
  return pairs;
}

/** Whether `term` is one pair of letters of a CJK run: found through the pairs a passage holds ({@link cjkPairsOf}). */
export function isCjkPair(term: string): boolean {
  return isCjk(term) && [...term].length === 2;
}

/**
 * The distinct pairs of letters of the CJK words of `texts` (normalized as search terms are): a
 * passage holds a pair term of {@link searchTerms} exactly when the pair is among these, so they
 * can be indexed as words are (src/search/index.ts) instead of scanning every passage.
 */
export function cjkPairsOf(...texts: string[]): string[] {
  const pairs = new Set<string>();
  for (const text of texts) {
    for (const word of words(text)) if (isCjk(word)) for (const pair of letterPairs(word)) pairs.add(pair);
  }
  return [...pairs];
}

/** Shortest term matched inside words (`stal` in "install"); CJK terms match anywhere at any length. */
export const MIN_SUBSTRING = 3;

/** Whether a term is looked for as a substring of the text, not only as a word. */
export function matchesInside(term: string): boolean {
  return term.length >= MIN_SUBSTRING || isCjk(term);
}

/** A text read once for matching: which terms it holds, and whether it holds a phrase. */
export interface TextMatch {
  has(term: string): boolean;
  /** Whether the text holds `phrase` (see {@link queryPhrase}). */
  holds(phrase: QueryPhrase): boolean;
}

/**
 * A text as matching reads it, computed once when a passage is indexed (stored with it, migration
 * 0034) instead of on every search that considers it: `words`, its words ({@link words}) in order
 * joined by single spaces; `stems`, their distinct stems ({@link stem}) joined by single spaces.
 */
export interface TextForms {
  words: string;
  stems: string;
}

export function textForms(text: string): TextForms {
  const textWords = words(text);
  return { words: textWords.join(' '), stems: [...new Set(textWords.map(stem))].join(' ') };
}

/** Stems of query terms, asked for once per candidate passage per term: kept (a bounded memo). */
const termStems = new Map<string, string>();
function termStem(term: string): string {
  let s = termStems.get(term);
  if (s === undefined) {
    if (termStems.size >= 1000) termStems.clear();
    s = stem(term);
    termStems.set(term, s);
  }
  return s;
}

/**
 * Which of `terms` occur in `text`: as a word (by stem, {@link termMatcher}), or inside a word for
 * terms of {@link MIN_SUBSTRING}+ letters and CJK terms (the trigram index finds those).
 */
export function textMatcher(text: string): TextMatch {
  return formsMatcher(textForms(text));
}

/**
 * {@link textMatcher} over a text's {@link TextForms}: string searches, no splitting or stemming
 * of the text. A stem is one of `stems` when ` stem ` is in them padded with spaces, a prefix of
 * one when ` stem` is; a term (letters and digits only) is inside the text exactly when it is
 * inside one of its words, so inside `words`.
 */
export function formsMatcher(forms: TextForms): TextMatch {
  return new FormsMatch(forms);
}

/** A class, not closures: re-ranking makes one per candidate passage. */
class FormsMatch implements TextMatch {
  private stems: string | undefined;
  private joined: string | undefined;

  constructor(private readonly forms: TextForms) {}

  has(term: string): boolean {
    this.stems ??= ` ${this.forms.stems} `;
    const s = termStem(term);
    return (
      this.stems.includes(` ${s} `) ||
      (s.length >= 4 && this.stems.includes(` ${s}`)) ||
      (matchesInside(term) && this.forms.words.includes(term))
    );
  }

  holds(phrase: QueryPhrase): boolean {
    this.joined ??= ` ${this.forms.words} `;
    return this.joined.includes(phrase.cjk ? phrase.words : ` ${phrase.words} `);
  }
}

export interface QueryPhrase {
  /** The query's words, joined by single spaces. */
  words: string;
  /** CJK: matched anywhere, not only between word boundaries. */
  cjk: boolean;
}

/**
 * The whole query as one phrase (its words in order, next to each other; for CJK, the run of
 * letters itself), or null when it is not one: a phrase has two or more words, or is a CJK run of
 * 2+ letters.
 */
export function queryPhrase(query: string): QueryPhrase | null {
  const queryWords = words(query);
  const phrase = queryWords.join(' ');
  const cjk = isCjk(phrase);
  if (queryWords.length < 2 && !(cjk && phrase.length >= 2)) return null;
  return { words: phrase, cjk };
}
