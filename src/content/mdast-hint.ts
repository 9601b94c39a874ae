/**
 * The Markdown extensions Bindery reads and writes, GitBook's block tags:
 *
 *     {% hint style="info" %}
 *     Markdown content
 *     {% endhint %}
 *
 *     {% tabs %}
 *     {% tab title="First" %}
 *     Markdown content
 *     {% endtab %}
 *     {% endtabs %}
 *
 *     {% embed url="https://…" %}
 *
 *     {% include "../.gitbook/includes/snippet.md" %}
 *
 * represented in mdast as `hint`, `tabs` (of `tab`), `embed` and `include` nodes (registered with mdast's
 * content maps below so remark's types accept them).
 */
import type { BlockContent, DefinitionContent, Parent } from 'mdast';
import type { HintStyle } from './document.js';

export interface HintNode extends Parent {
  type: 'hint';
  style: HintStyle;
  children: Array<BlockContent | DefinitionContent>;
}

export interface TabNode extends Parent {
  type: 'tab';
  title: string;
  children: Array<BlockContent | DefinitionContent>;
}

export interface TabsNode extends Parent {
  type: 'tabs';
  children: TabNode[];
}

export interface EmbedNode {
  type: 'embed';
  url: string;
}

/** A reusable content included in place: `url` is its path (Git Sync) or `/reusable-contents/<id>`. */
export interface IncludeNode {
  type: 'include';
  url: string;
}

declare module 'mdast' {
  interface RootContentMap {
    hint: HintNode;
    tabs: TabsNode;
    tab: TabNode;
    embed: EmbedNode;
    include: IncludeNode;
  }
  interface BlockContentMap {
    hint: HintNode;
    tabs: TabsNode;
    embed: EmbedNode;
    include: IncludeNode;
  }
}

export const HINT_STYLES: readonly HintStyle[] = ['info', 'warning', 'danger', 'success'];

export const HINT_OPEN = /^\s{0,3}\{%\s*hint\s+style\s*=\s*["']([a-z]+)["']\s*%\}\s*$/;
export const HINT_CLOSE = /^\s{0,3}\{%\s*endhint\s*%\}\s*$/;
export const TABS_OPEN = /^\s{0,3}\{%\s*tabs\s*%\}\s*$/;
export const TABS_CLOSE = /^\s{0,3}\{%\s*endtabs\s*%\}\s*$/;
export const TAB_OPEN = /^\s{0,3}\{%\s*tab\s+title\s*=\s*"([^"]*)"\s*%\}\s*$/;
export const TAB_CLOSE = /^\s{0,3}\{%\s*endtab\s*%\}\s*$/;
export const EMBED = /^\s{0,3}\{%\s*embed\s+url\s*=\s*"([^"]+)"[^%]*%\}\s*$/;
export const EMBED_CLOSE = /^\s{0,3}\{%\s*endembed\s*%\}\s*$/;
export const INCLUDE = /^\s{0,3}\{%\s*include\s+(?:"([^"]+)"|'([^']+)')\s*%\}\s*$/;

/** A tab title inside `title="…"` (quotes written as `&quot;`). */
export function encodeTitle(title: string): string {
  return title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\n/g, ' ');
}
export function decodeTitle(title: string): string {
  return title.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

export function isHintStyle(value: string): value is HintStyle {
  return (HINT_STYLES as readonly string[]).includes(value);
}
