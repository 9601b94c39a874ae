/**
 * One pass over a Markdown body's lines that finds GitBook's block tags (outside fenced code) and
 * pairs each opening tag with its closing one, so that the parser (markdown.ts) never searches
 * ahead: the work is linear in the lines, whatever is left unclosed.
 *
 * Pairing: `{% tabs %}` and `{% tab %}` nest, each pairs with the first close that outnumbers the
 * opens after it (a stack per kind gives that, whatever came before); a `{% hint %}` does not nest
 * and pairs with an `{% endhint %}` only when no other `{% hint %}` comes first. The parser accepts
 * a pair only when its close lies inside the block being parsed; an open without one stays text.
 */

import { badRequest } from '../lib/errors.js';
import { CONTENT_LIMITS, tooDeep } from './limits.js';
import {
  EMBED,
  EMBED_CLOSE,
  HINT_CLOSE,
  HINT_OPEN,
  INCLUDE,
  TAB_CLOSE,
  TAB_OPEN,
  TABS_CLOSE,
  TABS_OPEN,
} from './mdast-hint.js';

export type Tag = 'hint' | 'endhint' | 'tabs' | 'endtabs' | 'tab' | 'endtab' | 'embed' | 'endembed' | 'include';

export interface ScannedLines {
  lines: string[];
  /** The tag on each line (undefined: none, or inside fenced code). */
  tags: Array<Tag | undefined>;
  /** For an opening tag's line, the line of its close (-1: none). */
  close: Int32Array;
  /** Each line's nesting in Markdown alone (see {@link CONTENT_LIMITS.nestingDepth}); 0 in fenced code. */
  nesting: Uint16Array;
}

const TAG_LINE = /^\s{0,3}\{%/;

/** The fence state after `line`: the open fence marker, or null outside fenced code. */
function fenceAfter(line: string, fence: string | null): string | null {
  const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
  if (!marker) return fence;
  if (fence === null) return marker;
  return marker[0] === fence[0] && marker.length >= fence.length ? null : fence;
}

function tagOf(line: string): Tag | undefined {
  if (!TAG_LINE.test(line)) return undefined;
  if (HINT_OPEN.test(line)) return 'hint';
  if (HINT_CLOSE.test(line)) return 'endhint';
  if (TABS_OPEN.test(line)) return 'tabs';
  if (TABS_CLOSE.test(line)) return 'endtabs';
  if (TAB_OPEN.test(line)) return 'tab';
  if (TAB_CLOSE.test(line)) return 'endtab';
  if (EMBED.test(line)) return 'embed';
  if (EMBED_CLOSE.test(line)) return 'endembed';
  if (INCLUDE.test(line)) return 'include';
  return undefined;
}

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;

/**
 * How deep `line` can nest containers in Markdown, counted generously: its `>` and list markers
 * before any text, and a level per two columns of indentation before the first marker and past the
 * one space a marker takes (how nested list items continue). Stops past the limit: the line is
 * refused then anyway.
 */
export function lineNesting(line: string): number {
  let levels = 0;
  let columns = 0;
  let i = 0;
  while (i < line.length && levels <= CONTENT_LIMITS.nestingDepth) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      columns += c === ' ' ? 1 : 4 - (columns % 4);
      i++;
      continue;
    }
    // The run of spaces before this character, less the one of the marker before it.
    levels += Math.max(0, columns - (levels > 0 ? 1 : 0)) >> 1;
    columns = 0;
    if (c === '>') {
      levels++;
      i++;
      continue;
    }
    const marker = LIST_MARKER.exec(line.slice(i, i + 11))?.[0];
    if (!marker) return levels;
    levels++;
    i += marker.length;
  }
  // Spaces ending the line hold nothing.
  return levels;
}

/** Splits `markdown` into lines and scans them once (see the header). 400 past a limit. */
export function scanLines(markdown: string): ScannedLines {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > CONTENT_LIMITS.markdownLines) {
    throw badRequest(`the Markdown has ${lines.length} lines; the limit is ${CONTENT_LIMITS.markdownLines}`);
  }
  const tags: Array<Tag | undefined> = new Array(lines.length);
  const close = new Int32Array(lines.length).fill(-1);
  const nesting = new Uint16Array(lines.length);
  const tabs: number[] = [];
  const tab: number[] = [];
  let hint = -1;
  let count = 0;
  let total = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const before = fence;
    fence = fenceAfter(line, fence);
    // The fence's own lines are not in it: an opening one may sit in a list item.
    if (before !== null && fence !== null) continue;
    const depth = lineNesting(line);
    if (depth > CONTENT_LIMITS.nestingDepth) throw tooDeep(`line ${i + 1} of the Markdown`);
    nesting[i] = depth;
    total += depth;
    if (total > CONTENT_LIMITS.nestingTotal) {
      throw badRequest(
        `the Markdown nests too many lines: their nesting adds up to more than ${CONTENT_LIMITS.nestingTotal} by line ${i + 1}`,
      );
    }
    if (fence !== null) continue;
    const tag = tagOf(line);
    if (tag === undefined) continue;
    if (++count > CONTENT_LIMITS.blockTags) {
      throw badRequest(`the Markdown has more than ${CONTENT_LIMITS.blockTags} block tags ({% … %})`);
    }
    tags[i] = tag;
    if (tag === 'tabs') tabs.push(i);
    else if (tag === 'tab') tab.push(i);
    else if (tag === 'hint') hint = i;
    else if (tag === 'endtabs' && tabs.length > 0) close[tabs.pop() as number] = i;
    else if (tag === 'endtab' && tab.length > 0) close[tab.pop() as number] = i;
    else if (tag === 'endhint' && hint >= 0) {
      close[hint] = i;
      hint = -1;
    }
  }
  return { lines, tags, close, nesting };
}
