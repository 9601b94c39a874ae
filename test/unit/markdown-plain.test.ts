/**
 * A line of plain words is read as one paragraph without calling remark (src/content/markdown.ts,
 * `isPlainLine`): checked against remark itself (CommonMark + GFM, as the parser is configured) over
 * generated lines that mix plain words with what makes Markdown (list markers, emphasis, links,
 * `www.` and e-mail autolinks, entities, escapes, trailing and double spaces).
 */
import fc from 'fast-check';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { type ParseStats, parseMarkdown } from '../../src/content/markdown.js';

const remark = unified().use(remarkParse).use(remarkGfm);

function parsed(markdown: string): { children: unknown[]; stats: ParseStats } {
  const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
  return { children: parseMarkdown(markdown, stats).children, stats };
}

const piece = fc.constantFrom(
  'a',
  'Word',
  'é',
  '𝒜',
  '日本',
  '7',
  '1.',
  '2)',
  ' ',
  ' ',
  '  ',
  '.',
  ',',
  ':',
  '!',
  '?',
  "'",
  '"',
  '(',
  ')',
  '-',
  '- ',
  '+ ',
  '* ',
  '# ',
  '> ',
  '*',
  '_',
  '~',
  '`',
  '[x]',
  '](y)',
  '<b>',
  '&amp;',
  '\\',
  'www.',
  'WWW.',
  'www.example.com',
  'a@b.co',
  'http://x.y',
  '|',
  '---',
  '===',
  '\t',
  '\u00a0',
);
const line = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));

describe('a plain line of Markdown', () => {
  it('is read as remark reads it, positions included', () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(parsed(text).children).toEqual(remark.parse(text).children);
      }),
      { numRuns: 1000 },
    );
  });

  it('does not reach remark when it is plain words', () => {
    for (const text of ['Comment 12 on this draft.', 'Looks good: ship it (after the tests)!', 'Ça va, «non»?']) {
      const { children, stats } = parsed(text);
      expect(children).toEqual(remark.parse(text).children);
      if (text.includes('«')) continue; // « » are not in the plain set: remark reads it
      expect(stats.remarkCalls).toBe(0);
    }
    for (const text of ['1. first', '- item', 'see www.example.com', 'a *b*', 'trailing ', 'two  spaces']) {
      expect(parsed(text).stats.remarkCalls).toBe(1);
    }
  });
});
