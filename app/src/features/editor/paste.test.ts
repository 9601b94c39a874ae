import { describe, expect, it } from 'vitest';
import { convertPasted, looksLikeMarkdown } from './paste';

describe('looksLikeMarkdown', () => {
  it('sees headings, lists, quotes, fences, tables, links and emphasis', () => {
    for (const text of [
      '## Title',
      '- a\n- b',
      '1. one',
      '> said',
      '```js\nx\n```',
      '| a | b |',
      'see [x](y)',
      '**b**',
    ])
      expect(looksLikeMarkdown(text), text).toBe(true);
  });
  it('leaves plain prose as text', () => {
    for (const text of ['Just a sentence.', 'Price: 5 - 3 = 2', '#hashtag', 'a*b*c'])
      expect(looksLikeMarkdown(text), text).toBe(false);
  });
});

describe('convertPasted', () => {
  it('converts Markdown through the import converter into the editor’s blocks', async () => {
    const blocks = await convertPasted('markdown', '## Title\n\n- a\n- b');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'bulletList']);
    expect(blocks[0]?.attrs?.level).toBe(2);
  });
  it('converts HTML, keeping a leading level-1 heading (the page has its title)', async () => {
    const blocks = await convertPasted('html', '<h1>Top</h1><p>Some <b>bold</b></p>');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph']);
    expect(JSON.stringify(blocks[1])).toContain('"bold"');
  });
});
