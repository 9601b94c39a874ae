/**
 * Attributes holding JSON, mirrored in the HTML as `data-*` attributes so that a copy and a paste
 * inside the editor keep them (extensions.ts, table-nodes.ts).
 */
import type { TagParseRule } from '@tiptap/pm/model';
import { sameJson } from './types.js';

type Attrs = Record<string, unknown>;

function parseJson(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** An attribute holding JSON, mirrored in `data-<name>`; `split: false` for identities (a split does not copy it). */
export function jsonAttribute(name: string, fallback: unknown = null, split = true) {
  const html = `data-${name.toLowerCase()}`;
  return {
    default: fallback,
    keepOnSplit: split,
    // Absent: null, so ProseMirror gives the default and a parse rule's own attributes stand.
    parseHTML: (element: HTMLElement) => parseJson(element.getAttribute(html)),
    // Left out when the default; null written as "null" when the default is not (see keepNulls).
    renderHTML: (attrs: Attrs) => (sameJson(attrs[name], fallback) ? {} : { [html]: JSON.stringify(attrs[name]) }),
  };
}

const JSON_ATTRIBUTES = ['key', 'data', 'extra', 'json', 'props'];

/**
 * Parse rules that keep an attribute written as "null": TipTap drops an attribute parsed as null
 * (its default then applies), not one a rule's `getAttrs` gives.
 */
export function keepNulls(rules: TagParseRule[]): TagParseRule[] {
  return rules.map((rule) => ({
    ...rule,
    getAttrs: (element: HTMLElement) => {
      const own = rule.getAttrs ? rule.getAttrs(element) : null;
      if (own === false) return false;
      const nulls = JSON_ATTRIBUTES.filter((name) => element.getAttribute(`data-${name}`) === 'null');
      return { ...Object.fromEntries(nulls.map((name) => [name, null])), ...(own ?? {}) };
    },
  }));
}
