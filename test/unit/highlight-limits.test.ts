/**
 * Highlighting is bounded per block and per page (HIGHLIGHT_LIMITS): past a bound, code is shown
 * plain and escaped, checked by what the renderer wrote (never by timing).
 */
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/content/document.js';
import { codeLanguages, DocumentRenderer } from '../../src/published/render/document.js';
import { codeThemes, HIGHLIGHT_LIMITS, prepareHighlighter } from '../../src/published/render/highlight.js';

const themes = codeThemes({ light: 'github-light', dark: 'github-dark' });

function code(syntax: string, text: string): Block {
  return {
    object: 'block',
    type: 'code',
    data: { syntax },
    nodes: text.split('\n').map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  } as Block;
}

async function render(nodes: Block[]): Promise<string[]> {
  const highlighter = await prepareHighlighter(codeLanguages(nodes), themes);
  const rendered = new DocumentRenderer({
    link: () => null,
    file: () => null,
    highlighter,
    codeThemes: themes,
    externalTarget: 'self',
  }).render(nodes);
  return rendered.body.map((node) => toHtml(node));
}

const highlighted = (html: string) => html.includes('--shiki-dark:');
const isPlain = (html: string) => html.includes('class="shiki plain"') && !highlighted(html);
/** Distinct code each time, so that no answer comes from the cache of highlighted blocks. */
let n = 0;
const unique = () => `const v${n++}${Math.random().toString(36).slice(2)} = "<b>";`;

describe('highlighting limits', () => {
  it('highlights a small block', async () => {
    const [html] = await render([code('js', unique())]);
    expect(highlighted(html as string)).toBe(true);
  });

  it('shows a block over the character or line limit plain and escaped', async () => {
    const long = `${unique()}\n${'x'.repeat(HIGHLIGHT_LIMITS.blockChars)}`;
    const many = Array.from({ length: HIGHLIGHT_LIMITS.blockLines + 1 }, unique).join('\n');
    const html = await render([code('js', long), code('js', many)]);
    for (const block of html) {
      expect(isPlain(block)).toBe(true);
      expect(block).toContain('&#x3C;b>');
      expect(block).not.toContain('<b>');
    }
    expect((html[1]?.match(/class="line"/g) ?? []).length).toBe(HIGHLIGHT_LIMITS.blockLines + 1);
  });

  it('highlights a page only up to its budget, the rest plain', async () => {
    const lines = Math.floor(HIGHLIGHT_LIMITS.blockChars / 50);
    const block = () => Array.from({ length: lines }, () => unique().padEnd(49, ' ')).join('\n');
    const count = Math.ceil(HIGHLIGHT_LIMITS.pageChars / (lines * 50)) + 2;
    const html = await render(Array.from({ length: count }, () => code('js', block())));
    const done = html.filter(highlighted).length;
    expect(done).toBeGreaterThan(0);
    expect(done * lines * 50).toBeLessThanOrEqual(HIGHLIGHT_LIMITS.pageChars + lines * 50);
    expect(html.slice(done).every(isPlain)).toBe(true);
    // Another page has a budget of its own.
    expect(highlighted((await render([code('js', unique())]))[0] as string)).toBe(true);
  }, 60_000);

  it('loads only so many languages for one page', async () => {
    const languages = ['rust', 'go', 'python', 'ruby', 'java', 'kotlin', 'swift', 'csharp', 'r', 'prolog'];
    const before = new Set((await prepareHighlighter([], themes)).getLoadedLanguages());
    expect(languages.filter((l) => before.has(l))).toEqual([]);
    const html = await render(languages.map((language) => code(language, unique())));
    const after = (await prepareHighlighter([], themes)).getLoadedLanguages();
    // The first ones are loaded and highlighted; past the limit, neither.
    const cap = HIGHLIGHT_LIMITS.pageLanguages;
    expect(languages.slice(0, cap).every((l) => after.includes(l))).toBe(true);
    expect(html.slice(0, cap).every(highlighted)).toBe(true);
    expect(languages.slice(cap).filter((l) => after.includes(l))).toEqual([]);
    expect(html.slice(cap).every(isPlain)).toBe(true);
  }, 60_000);
});
