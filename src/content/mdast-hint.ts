/**
 * The one Markdown extension Bindery reads and writes: GitBook's hint blocks,
 *
 *     {% hint style="info" %}
 *     Markdown content
 *     {% endhint %}
 *
 * represented in mdast as a `hint` node (registered with mdast's content maps below so remark's
 * types accept it).
 */
import type { BlockContent, DefinitionContent, Parent } from 'mdast';
import type { HintStyle } from './document.js';

export interface HintNode extends Parent {
  type: 'hint';
  style: HintStyle;
  children: Array<BlockContent | DefinitionContent>;
}

declare module 'mdast' {
  interface RootContentMap {
    hint: HintNode;
  }
  interface BlockContentMap {
    hint: HintNode;
  }
}

export const HINT_STYLES: readonly HintStyle[] = ['info', 'warning', 'danger', 'success'];

export const HINT_OPEN = /^\s{0,3}\{%\s*hint\s+style\s*=\s*["']([a-z]+)["']\s*%\}\s*$/;
export const HINT_CLOSE = /^\s{0,3}\{%\s*endhint\s*%\}\s*$/;

export function isHintStyle(value: string): value is HintStyle {
  return (HINT_STYLES as readonly string[]).includes(value);
}
