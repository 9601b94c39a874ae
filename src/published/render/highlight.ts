/**
 * Code highlighting with Shiki, fine-grained: the core highlighter with the JavaScript regex engine
 * (no WebAssembly), created on the first code block, and each grammar and theme imported the first
 * time a page needs it. A process that never renders code never loads Shiki's grammars.
 *
 * Highlighting itself is synchronous once the grammars are loaded, so a page is prepared first
 * ({@link prepareHighlighter} with the languages and themes it uses), then rendered. Highlighted
 * blocks are cached by (themes, language, code), so re-rendering a page after an unrelated change
 * does not highlight its code again.
 *
 * Highlighting runs on the event loop, inside a page render, and a grammar's regular expressions can
 * cost much per character: so what one page may highlight is bounded ({@link HIGHLIGHT_LIMITS}),
 * and code past a bound is shown plain (escaped, one `span.line` per line, as highlighted code).
 */
import { createHash } from 'node:crypto';
import type { Element, Root } from 'hast';
import { h } from 'hastscript';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { bundledThemes } from 'shiki/themes';

export interface CodeThemes {
  light: string;
  dark: string;
}

/** The themes used when the customization names none Shiki knows (`default-light`, `default-dark`). */
const DEFAULT_THEMES: CodeThemes = { light: 'github-light', dark: 'github-dark' };
const CACHE_SIZE = 2_000;

/** What one page render may highlight; past a bound, code is shown plain. */
export const HIGHLIGHT_LIMITS = {
  /** Characters of one code block. */
  blockChars: 20_000,
  /** Lines of one code block. */
  blockLines: 1_000,
  /** Characters of all the code a page highlights (blocks already highlighted, cached, are free). */
  pageChars: 100_000,
  /** Languages a page loads (a grammar is imported and compiled on its first use). */
  pageLanguages: 8,
  /** Characters of one line past which the rest of the line is left untokenized. */
  lineChars: 2_000,
  /** Time for one line's tokenizing, past which its rest is left untokenized (Shiki's own bound). */
  lineMs: 1_000,
} as const;

let highlighter: Promise<HighlighterCore> | null = null;
const cache = new Map<string, Element>();

function instance(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({ engine: createJavaScriptRegexEngine(), themes: [], langs: [] });
  return highlighter;
}

/** The Shiki language id for a code block's `syntax` (aliases such as `js` or `sh` included), or null. */
export function languageOf(syntax: string | undefined): string | null {
  const name = syntax?.trim().toLowerCase();
  return name && Object.hasOwn(bundledLanguages, name) ? name : null;
}

/** The themes to use for the customization's code theme (unknown names fall back to GitHub's). */
export function codeThemes(wanted: { light: string; dark: string }): CodeThemes {
  const known = (name: string) => Object.hasOwn(bundledThemes, name);
  return {
    light: known(wanted.light) ? wanted.light : DEFAULT_THEMES.light,
    dark: known(wanted.dark) ? wanted.dark : DEFAULT_THEMES.dark,
  };
}

/**
 * Loads the grammars of `languages` (the first {@link HIGHLIGHT_LIMITS.pageLanguages}) and the
 * `themes`; afterwards {@link highlight} is synchronous.
 */
export async function prepareHighlighter(languages: Iterable<string>, themes: CodeThemes): Promise<HighlighterCore> {
  const core = await instance();
  const loadedThemes = new Set(core.getLoadedThemes());
  for (const name of [themes.light, themes.dark]) {
    if (!loadedThemes.has(name)) await core.loadTheme(bundledThemes[name as keyof typeof bundledThemes]);
  }
  const loaded = new Set(core.getLoadedLanguages());
  for (const name of [...languages].slice(0, HIGHLIGHT_LIMITS.pageLanguages)) {
    if (!loaded.has(name)) await core.loadLanguage(bundledLanguages[name as keyof typeof bundledLanguages]);
  }
  return core;
}

function lineCount(code: string): number {
  let lines = 1;
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** A plain `<pre><code>` of `code`, one `span.line` per line, as Shiki writes highlighted blocks. */
function plain(code: string): Element {
  const lines = code.split('\n');
  return h(
    'pre.shiki.plain',
    { tabindex: 0 },
    h(
      'code',
      lines.flatMap((line, i) => [
        h('span.line', line),
        ...(i < lines.length - 1 ? [{ type: 'text' as const, value: '\n' }] : []),
      ]),
    ),
  );
}

/** What is left of one page render's {@link HIGHLIGHT_LIMITS} (a renderer holds one). */
export class HighlightBudget {
  private chars: number = HIGHLIGHT_LIMITS.pageChars;

  /** Whether `code` may be highlighted, counting it against the page's characters when it may. */
  take(code: string, lines: number): boolean {
    if (code.length > HIGHLIGHT_LIMITS.blockChars || lines > HIGHLIGHT_LIMITS.blockLines) return false;
    if (code.length > this.chars) return false;
    this.chars -= code.length;
    return true;
  }
}

/**
 * The `<pre>` of a code block: highlighted when `language` is loaded (by {@link prepareHighlighter})
 * and the code is within the page's `budget` (see {@link HIGHLIGHT_LIMITS}), plain otherwise. The colors of both themes are CSS variables (`--shiki-light`, `--shiki-dark`); the
 * page's stylesheet picks one.
 */
export function highlight(
  core: HighlighterCore | null,
  code: string,
  language: string | null,
  themes: CodeThemes,
  budget: HighlightBudget,
): Element {
  if (!core || !language || !core.getLoadedLanguages().includes(language)) return plain(code);
  const key = createHash('sha1').update(`${themes.light}\0${themes.dark}\0${language}\0${code}`).digest('base64');
  const cached = cache.get(key);
  // Serializing a hast tree does not change it, so one element is shared by every page that shows it.
  if (cached) return cached;
  if (!budget.take(code, lineCount(code))) return plain(code);
  const root: Root = core.codeToHast(code, {
    lang: language,
    themes: { light: themes.light, dark: themes.dark },
    defaultColor: false,
    // Shiki leaves the rest of a line untokenized past its time limit (500 ms by default), which the
    // first use of a grammar can reach on a busy machine; the result is cached, so take some more.
    // Long lines (minified code, data) are where a grammar's expressions cost most: left plain.
    tokenizeTimeLimit: HIGHLIGHT_LIMITS.lineMs,
    tokenizeMaxLineLength: HIGHLIGHT_LIMITS.lineChars,
  });
  const pre = root.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre') ?? plain(code);
  cache.set(key, pre);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return pre;
}
