/**
 * The Markdown parser's cost is linear in its input and bounded: checked by counting its work (lines
 * it visits, characters it hands to remark), never by timing, on pathological shapes of every kind.
 */
import { describe, expect, it } from 'vitest';
import { lineNesting, scanLines } from '../../src/content/block-tags.js';
import { CONTENT_LIMITS, checkDocumentLimits } from '../../src/content/limits.js';
import { markdownToDocument, type ParseStats, parseMarkdown } from '../../src/content/markdown.js';

const TAB = (title: string) => `{% tab title="${title}" %}`;

/** Shapes of input, each made of `n` repeats of a hostile pattern (below the tag limit at n ≤ 4000). */
const SHAPES: Record<string, (n: number) => string> = {
  'unclosed tabs': (n) => '{% tabs %}\n'.repeat(n),
  'unclosed tabs with text': (n) => '{% tabs %}\nsome text\n\n'.repeat(n),
  'unclosed tab inside closed tabs': (n) => `{% tabs %}\n${`${TAB('a')}\ntext\n`.repeat(n)}{% endtabs %}\n`,
  'unclosed hints': (n) => '{% hint style="info" %}\nsome text\n'.repeat(n),
  'closes without opens': (n) => '{% endtabs %}\n{% endtab %}\n{% endhint %}\n'.repeat(n),
  'many tabs, one close at the end': (n) => `${'{% tabs %}\n'.repeat(n)}{% endtabs %}\n`,
  'hints in tabs, unclosed inside': (n) =>
    `{% tabs %}\n${TAB('t')}\n${'{% hint style="info" %}\n{% tabs %}\n'.repeat(n)}{% endtab %}\n{% endtabs %}\n`,
  'embeds and includes': (n) => '{% embed url="https://example.com" %}\n{% include "x.md" %}\n'.repeat(n),
  'tags inside an unclosed fence': (n) => `\`\`\`\n${'{% tabs %}\n{% hint style="info" %}\n'.repeat(n)}`,
  'a huge table': (n) => `| a | b | c |\n| - | - | - |\n${'| x | y | z |\n'.repeat(n)}`,
  'a long line': (n) => `${'word *emph* [link](x) '.repeat(n)}\n`,
  'quotes and lists at the depth limit': (n) => '> > > - - - 1. x\n'.repeat(n),
};

function cost(markdown: string): ParseStats {
  const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
  parseMarkdown(markdown, stats);
  return stats;
}

describe('the Markdown parser', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`does work linear in the input: ${name}`, () => {
      const small = shape(250);
      const large = shape(500);
      const a = cost(small);
      const b = cost(large);
      const lines = (text: string) => text.split('\n').length;
      // Each line is visited once per block around it (at most a few here), and each character
      // reaches remark at most once: never a rescan of the rest of the document per tag.
      expect(a.lines).toBeGreaterThanOrEqual(lines(small) / 2);
      expect(a.lines).toBeLessThanOrEqual(3 * lines(small));
      expect(b.lines).toBeLessThanOrEqual(3 * lines(large));
      expect(b.lines).toBeLessThanOrEqual(2 * a.lines + 10);
      expect(a.remarkChars).toBeLessThanOrEqual(small.length);
      expect(b.remarkChars).toBeLessThanOrEqual(large.length);
    });
  }

  it('reads an unclosed tag as text and still pairs the tags around it', () => {
    const doc = markdownToDocument(
      `{% tabs %}\n\n{% tabs %}\n${TAB('One')}\nfirst\n{% endtab %}\n{% endtabs %}\n\n{% hint style="info" %}\n`,
    );
    expect(doc.nodes.map((n) => n.type)).toEqual(['paragraph', 'tabs', 'paragraph']);
    expect(doc.nodes[1]).toMatchObject({ nodes: [{ type: 'tabs-item', data: { title: 'One' } }] });
  });

  it('keeps a block whose close lies outside its parent as text', () => {
    // The tabs open inside the hint closes after it: unclosed within the hint.
    const doc = markdownToDocument('{% hint style="info" %}\n{% tabs %}\n{% endhint %}\n{% endtabs %}\n');
    expect(doc.nodes[0]).toMatchObject({ type: 'hint' });
    expect(JSON.stringify(doc.nodes[0])).toContain('{% tabs %}');
  });
});

describe('the content limits', () => {
  const limitOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error as { statusCode: number; message: string };
    }
    return null;
  };

  it('refuses Markdown over the size limit with 413, before parsing', () => {
    const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
    const error = limitOf(() => parseMarkdown('x'.repeat(CONTENT_LIMITS.markdownBytes + 1), stats));
    expect(error).toMatchObject({ statusCode: 413 });
    expect(stats.lines).toBe(0);
    // Counted in bytes: 'é' is two.
    expect(limitOf(() => parseMarkdown('é'.repeat(CONTENT_LIMITS.markdownBytes / 2 + 1)))).toMatchObject({
      statusCode: 413,
    });
    expect(limitOf(() => parseMarkdown('é'.repeat(CONTENT_LIMITS.markdownBytes / 4)))).toBeNull();
  });

  it('refuses more block tags than the limit with 400, before parsing', () => {
    const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
    const error = limitOf(() => parseMarkdown('{% tabs %}\n'.repeat(CONTENT_LIMITS.blockTags + 1), stats));
    expect(error).toMatchObject({ statusCode: 400, message: expect.stringContaining('block tags') });
    expect(stats.lines).toBe(0);
    expect(limitOf(() => scanLines('{% tabs %}\n'.repeat(CONTENT_LIMITS.blockTags)))).toBeNull();
  });

  const deeper = CONTENT_LIMITS.nestingDepth + 1;
  /** `inner` inside tabs (each tabs and its tab two levels) `levels` deep. */
  const inTabs = (levels: number, inner: string) =>
    `${`{% tabs %}\n${TAB('t')}\n`.repeat(levels / 2)}${inner}\n${'{% endtab %}\n{% endtabs %}\n'.repeat(levels / 2)}`;
  const NESTED: Record<string, string> = {
    tabs: inTabs(deeper + 1, 'x'),
    'a hint in tabs': inTabs(CONTENT_LIMITS.nestingDepth, '{% hint style="info" %}\nx\n{% endhint %}'),
    quotes: `${'>'.repeat(deeper)} x\n`,
    'spaced quotes': `${'> '.repeat(deeper)}x\n`,
    'list markers': `${'- '.repeat(deeper)}x\n`,
    'ordered list markers': `${'1. '.repeat(deeper)}x\n`,
    'indented lists': Array.from({ length: deeper }, (_, i) => `${'  '.repeat(i)}- x`).join('\n'),
    'quotes inside tabs': inTabs(
      CONTENT_LIMITS.nestingDepth / 2,
      `${'>'.repeat(CONTENT_LIMITS.nestingDepth / 2 + 1)} x`,
    ),
    'a list in a hint in tabs': inTabs(
      CONTENT_LIMITS.nestingDepth - 2,
      `{% hint style="info" %}\n${'- '.repeat(3)}x\n{% endhint %}`,
    ),
  };
  for (const [name, markdown] of Object.entries(NESTED)) {
    it(`refuses nesting deeper than the limit with 400: ${name}`, () => {
      expect(limitOf(() => markdownToDocument(markdown))).toMatchObject({
        statusCode: 400,
        message: expect.stringContaining(`deeper than ${CONTENT_LIMITS.nestingDepth} levels`),
      });
    });
  }

  it('accepts nesting up to the limit', () => {
    expect(lineNesting(`${'> '.repeat(CONTENT_LIMITS.nestingDepth)}x`)).toBe(CONTENT_LIMITS.nestingDepth);
    expect(lineNesting(`${'  '.repeat(4)}- x`)).toBe(5);
    const doc = markdownToDocument(`${'> '.repeat(CONTENT_LIMITS.nestingDepth)}x\n`);
    expect(doc.nodes[0]?.type).toBe('blockquote');
    expect(markdownToDocument(inTabs(CONTENT_LIMITS.nestingDepth, 'x')).nodes[0]?.type).toBe('tabs');
    // Blank lines of spaces are not nesting.
    expect(lineNesting(' '.repeat(200))).toBe(0);
    // Code is not nesting, however indented.
    expect(markdownToDocument(`\`\`\`\n${' '.repeat(500)}x\n\`\`\`\n`).nodes[0]?.type).toBe('code');
  });

  it('refuses lines nested too much in total with 400, before parsing', () => {
    const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
    const line = `${'- '.repeat(CONTENT_LIMITS.nestingDepth)}x\n`;
    const markdown = line.repeat(Math.ceil(CONTENT_LIMITS.nestingTotal / CONTENT_LIMITS.nestingDepth) + 1);
    expect(limitOf(() => parseMarkdown(markdown, stats))).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('nesting adds up'),
    });
    expect(stats.lines).toBe(0);
  });

  it('refuses more lines or blocks than the limit with 400', () => {
    const stats: ParseStats = { lines: 0, remarkCalls: 0, remarkChars: 0 };
    const lines = limitOf(() => parseMarkdown('\n'.repeat(CONTENT_LIMITS.markdownLines), stats));
    expect(lines).toMatchObject({ statusCode: 400, message: expect.stringContaining('lines') });
    expect(stats.lines).toBe(0);
    // Two rows of cells, each cell a paragraph: more blocks than lines.
    const row = `|${' x |'.repeat(CONTENT_LIMITS.blocks / 2 + 1)}\n`;
    const table = `${row}|${' - |'.repeat(CONTENT_LIMITS.blocks / 2 + 1)}\n${row}${row}`;
    const blocks = limitOf(() => markdownToDocument(table));
    expect(blocks).toMatchObject({ statusCode: 400, message: expect.stringContaining('blocks') });
  });

  it('bounds a JSON document the same way, without recursion', () => {
    const quote = (depth: number): unknown => {
      let node: unknown = { object: 'block', type: 'paragraph', nodes: [] };
      for (let i = 0; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
      return { object: 'document', nodes: [node] };
    };
    expect(limitOf(() => checkDocumentLimits(quote(CONTENT_LIMITS.nestingDepth - 1)))).toBeNull();
    expect(limitOf(() => checkDocumentLimits(quote(100_000)))).toMatchObject({ statusCode: 400 });
    let data: unknown = {};
    for (let i = 0; i < 100_000; i++) data = { a: data };
    expect(limitOf(() => checkDocumentLimits({ object: 'document', data, nodes: [] }))).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('objects and arrays'),
    });
    const many = Array.from({ length: CONTENT_LIMITS.blocks + 1 }, () => ({ object: 'block', type: 'divider' }));
    expect(limitOf(() => checkDocumentLimits({ object: 'document', nodes: many }))).toMatchObject({
      statusCode: 400,
    });
    const text = 'x'.repeat(CONTENT_LIMITS.documentJsonBytes);
    const big = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', data: { text } }] };
    expect(limitOf(() => checkDocumentLimits(big))).toMatchObject({ statusCode: 413 });
  });
});
