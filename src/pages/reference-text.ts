/** Text of the API reference (/docs): the OpenAPI document's prose as HTML, and the page's anchors. */
import { escapeHtml } from './html.js';

/**
 * One line of the document's prose as HTML: escaped, with its `code spans` as <code>. The
 * descriptions are written in Markdown but use nothing else, so no Markdown renderer is loaded for them.
 */
export function inlineText(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join('');
}

/** A description as paragraphs (split at blank lines), '' when there is none. */
export function paragraphs(text: unknown, className = 'desc'): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p class="${className}">${inlineText(p.trim())}</p>`)
    .join('');
}

/** A fragment-safe form of a name (letters, digits, `_.-` kept; anything else `-`). */
function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '-');
}

/** The anchors are Redoc's, so that links into the reference made before it was served by Bindery still land. */
export const anchors = {
  tag: (tag: string) => `tag/${slug(tag)}`,
  operation: (operationId: string) => `operation/${slug(operationId)}`,
  schema: (name: string) => `schemas/${slug(name)}`,
};

/** A value (an enum's, a default) in a <code>: a string as itself (its type says it is one), anything else as JSON. */
export function codeValue(value: unknown): string {
  const text = typeof value === 'string' && value !== '' ? value : (JSON.stringify(value) ?? 'undefined');
  return `<code>${escapeHtml(text)}</code>`;
}
